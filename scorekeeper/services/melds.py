"""The melds on the table: going down with checked melds, lay-offs and Shanghai claims onto them."""

from django.utils.translation import gettext

import rules
from scorekeeper.actions import history
from scorekeeper.models import Event, Game, Round, Seat, TableMeld
from scorekeeper.rules_words import translated_reasons

from .events import event_record, meld_cards, melds_laid, undoes
from .refusals import ActionRefused
from .tables import current_round, hand_of, no_discard, round_end, round_in_play, table_write


@table_write
def melds_record(*, game: Game, seat: Seat, melds: list[list[rules.Card]], user) -> Event:
    """The seat goes down with these melds: checked against the round's contract, then laid on
    the table with each joker's card fixed, and the seat marked as down."""
    round_ = round_in_play(game)
    hand = hand_of(round_, seat)
    if hand.went_down and round_.melds.filter(owner=seat).exists():
        refusal = gettext("{player} is already down: lay cards off on the melds instead.")
        raise ActionRefused(refusal.format(player=seat.player))
    verdict = rules.check_going_down(round_.number, melds, game.house_rules)
    if not verdict.ok:
        raise ActionRefused(translated_reasons(verdict.reasons))
    laid = TableMeld.objects.bulk_create(
        TableMeld(round=round_, owner=seat, kind=meld.kind, cards=rules.format_cards(meld.cards))
        for meld in verdict.melds
    )
    hand.went_down = True
    hand.save(update_fields=["went_down"])
    if no_discard(game, round_):
        return round_end(game, round_, seat, user, melds=laid)
    shown = " | ".join(meld.cards for meld in laid)
    description = history(Event.Kind.WENT_DOWN, player=seat.player, melds=f": {shown}")
    return event_record(
        game, round_, Event.Kind.WENT_DOWN, user, description, seat=seat, after=melds_laid(laid)
    )


def _meld_in_play(game: Game, meld: TableMeld) -> Round:
    """The round being played, if `meld` is on its table."""
    round_ = current_round(game)
    if meld.round_id != round_.pk:
        raise ActionRefused(gettext("That meld is not on the table in this round."))
    return round_


def _meld_extend(game: Game, meld: TableMeld, cards: list[rules.Card]) -> tuple[str, str]:
    """Lay cards off on a table meld, or refuse with the rules' reasons. Returns the meld's
    cards before and after."""
    verdict = rules.check_lay_off(cards, meld.card_list, game.house_rules)
    if not verdict.ok:
        raise ActionRefused(translated_reasons(verdict.reasons))
    before = meld.cards
    meld.cards = rules.format_cards(verdict.melds[0].cards)
    meld.save(update_fields=["cards"])
    return before, meld.cards


@table_write
def meld_lay_off(*, game: Game, seat: Seat, meld: TableMeld, cards: list[rules.Card], user):
    """A player who has gone down adds cards to a meld on the table."""
    round_ = _meld_in_play(game, meld)
    if not hand_of(round_, seat).went_down:
        refusal = gettext("{player} has not gone down yet, so cannot lay off.")
        raise ActionRefused(refusal.format(player=seat.player))
    before, after = _meld_extend(game, meld, cards)
    laid = rules.format_cards(cards)
    description = history(
        Event.Kind.LAID_OFF, player=seat.player, cards=laid, owner=meld.owner.player, meld=before
    )
    changed = {"before": meld_cards(meld, before), "after": meld_cards(meld, after)}
    return event_record(game, round_, Event.Kind.LAID_OFF, user, description, seat=seat, **changed)


@table_write
def shanghai_claim_onto(
    *, game: Game, seat: Seat, discarder: Seat, meld: TableMeld, card: rules.Card, user
) -> Event:
    """A Shanghai claim that lays the discard off on a table meld, recorded on that meld."""
    round_ = _meld_in_play(game, meld)
    if discarder == seat:
        raise ActionRefused(gettext("A player cannot claim their own discard."))
    before, after = _meld_extend(game, meld, [card])
    kind = Event.Kind.SHANGHAI_CLAIM
    what = gettext("{card} onto {meld}").format(card=card, meld=before)
    description = history(kind, player=seat.player, discarder=discarder.player, what=what)
    changed = {"before": meld_cards(meld, before), "after": meld_cards(meld, after)}
    return event_record(
        game, round_, kind, user, description, seat=seat, other_seat=discarder, **changed
    )


@undoes(Event.Kind.LAID_OFF, Event.Kind.SHANGHAI_CLAIM)
def _meld_change_undo(game: Game, event: Event) -> None:
    """A lay-off, or a Shanghai claim laid onto a meld: the meld gets its cards back (a claim of
    a discard alone changed no meld: it is counted from the events that stand)."""
    if "meld" in event.before:
        TableMeld.objects.filter(pk=event.before["meld"]).update(cards=event.before["cards"])
