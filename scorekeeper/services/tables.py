"""The table's machinery (one versioned write at a time, the round in play) and the taps of the
round screen: May I?, went down, Shanghai calls, went out, each with its undo."""

import functools

from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef
from django.utils.translation import gettext

import rules
from scorekeeper import selectors
from scorekeeper.actions import history
from scorekeeper.models import Event, Game, Hand, Membership, Role, Round, Seat, TableMeld
from scorekeeper.rules_words import translated
from scorekeeper.selectors import Table

from .events import event_record, melds_laid, undoes
from .polls import poll_version_publish
from .refusals import ActionRefused, StaleState
from .roles import role_require


def table_write(service):
    """Run a write to a table in one transaction, if `user` may score at it and the screen it
    came from is up to date.

    The wrapped service is called as `service(game=..., version=..., ...)`, `version` being the
    table's version that screen showed. A conditional UPDATE is atomic on every database: of two
    writes based on the same version, exactly one moves it on; the other sees no row and is
    refused with StaleState. The same UPDATE checks the user's role, so a write costs no query
    of its own for it; when it claims nothing, the role is checked apart to say which refusal it
    is. A refused write leaves nothing behind, in the database or on `game`.

    A service may be given the `table` its view read (`selectors.table_read`) before the claim:
    every change to a table moves its version on, so once the claim succeeds, what was read is
    the table as it stands, and the service works on it without reading it again. A refused
    write may leave that `table` half changed: it is to be read afresh.
    """

    @functools.wraps(service)
    def write(*, game: Game, version: int, user, **kwargs):
        try:
            with transaction.atomic():
                if not _version_claim(game=game, version=version, user=user):
                    role_require(club=game.club_id, user=user, role=Role.SCORER)
                    raise StaleState(selectors.changes_since(game, version, user=user))
                game.version = version + 1
                # Told while this write holds the table's row: see scorekeeper/polling.py.
                poll_version_publish(game_id=game.pk, version=game.version)
                return service(game=game, user=user, **kwargs)
        except Exception:
            game.version = version
            raise

    return write


_SCORERS = [role.value for role in Role if role.allows(Role.SCORER)]


def _version_claim(*, game: Game, version: int, user) -> bool:
    """Move the table on from `version`, if it is still at it and `user` scores at its club:
    one UPDATE, whose WHERE checks the version and the role (an EXISTS of the membership)."""
    column = Game._meta.get_field("version").get_internal_type()
    lowest, highest = connection.ops.integer_field_range(column)
    if not lowest <= version <= highest:  # a forged version no table can be at (no SQL error)
        return False
    scorer = Membership.objects.filter(
        club_id=OuterRef("club_id"), user_id=getattr(user, "pk", None), role__in=_SCORERS
    )
    claimed = Game.objects.filter(Exists(scorer), pk=game.pk, version=version)
    return claimed.update(version=F("version") + 1) == 1


def round_deal(*, game: Game, number: int, seats: list[Seat]) -> Round:
    """Deal contract `number`: a round with an empty hand for each of the table's `seats`."""
    round_ = Round.objects.create(game=game, number=number)
    limit = game.house_rules.may_i_limit
    Hand.objects.bulk_create(Hand(round=round_, seat=seat, may_i_limit=limit) for seat in seats)
    return round_


def round_finish(*, game: Game, round_: Round, hands: list[Hand], deal: bool) -> list[Hand]:
    """Save a round scored (its `finished_at`, and its hands' cards and points, as set on
    them) and, if `deal`, deal the next contract: returns the hands dealt, each with its round.

    Two statements either way, an upsert of rounds on (game, number), then one of hands on
    (round, seat): each updates the rows of the round scored and inserts those of the round
    dealt. The rows scored are there already: of each, the upsert needs only the fields it
    matches on and those it updates (a new object, as bulk_create inserts rows with a primary key
    in a statement apart)."""
    rounds = [Round(game=game, number=round_.number, finished_at=round_.finished_at)]
    if deal:
        rounds.append(Round(game=game, number=round_.number + 1))
    Round.objects.bulk_create(
        rounds,
        update_conflicts=True,
        unique_fields=["game", "number"],
        update_fields=["finished_at"],
    )
    scored = [
        Hand(round=round_, seat_id=hand.seat_id, cards=hand.cards, points=hand.points)
        for hand in hands
    ]
    limit = game.house_rules.may_i_limit
    dealt = [Hand(round=rounds[1], seat=hand.seat, may_i_limit=limit) for hand in hands if deal]
    Hand.objects.bulk_create(
        scored + dealt,
        update_conflicts=True,
        unique_fields=["round", "seat"],
        update_fields=["cards", "points"],
    )
    return dealt


def current_round(game: Game, table: Table | None = None) -> Round:
    """The round being played or scored (of `table`, when it was read); a finished game has
    none."""
    if table is None:
        round_ = game.rounds.filter(finished_at__isnull=True).order_by("number").first()
    else:
        round_ = table.current
    if round_ is None:
        raise ActionRefused(gettext("This game is over: all the contracts have been played."))
    return round_


def round_in_play(game: Game, table: Table | None = None) -> Round:
    """The round being played: nobody has gone out of it yet."""
    round_ = current_round(game, table)
    if round_.went_out_id:
        raise ActionRefused(gettext("The round is over: someone went out. Enter the scores."))
    return round_


def hand_of(round_: Round, seat: Seat) -> Hand:
    return round_.hands.select_related("seat__player").get(seat=seat)


def no_discard(game: Game, round_: Round) -> bool:
    return game.house_rules.contract(round_.number).no_discard


@table_write
def may_i_spend(*, game: Game, seat: Seat, user, table: Table | None = None) -> Event:
    """Spend one of the seat's May I? tokens in the current round."""
    table = table or selectors.table_read(game)
    round_ = round_in_play(game, table)
    hand = table.hand(round_, seat)
    refusal = rules.may_i_refusal(
        game.house_rules,
        player=str(seat.player),
        went_down=hand.went_down,
        used=hand.may_i_used,
        limit=hand.may_i_limit,
    )
    if refusal:
        raise ActionRefused(translated(refusal))
    hand.may_i_used += 1
    hand.save(update_fields=["may_i_used"])
    left = hand.may_i_limit - hand.may_i_used
    description = history(Event.Kind.MAY_I, player=seat.player, left=left)
    return event_record(game, round_, Event.Kind.MAY_I, user, description, seat=seat)


@undoes(Event.Kind.MAY_I)
def _may_i_undo(game: Game, event: Event) -> None:
    Hand.objects.filter(round=event.round, seat=event.seat).update(may_i_used=F("may_i_used") - 1)


@table_write
def hand_mark_down(*, game: Game, seat: Seat, user, table: Table | None = None) -> Event:
    """Record that the seat laid down the contract; in a no-discard contract that is going out."""
    table = table or selectors.table_read(game)
    round_ = round_in_play(game, table)
    hand = table.hand(round_, seat)
    if hand.went_down:
        refusal = gettext("{player} has already gone down this round.")
        raise ActionRefused(refusal.format(player=seat.player))
    hand.went_down = True
    hand.save(update_fields=["went_down"])
    if no_discard(game, round_):
        return round_end(game, round_, seat, user)
    description = history(Event.Kind.WENT_DOWN, player=seat.player, melds="")
    return event_record(game, round_, Event.Kind.WENT_DOWN, user, description, seat=seat)


def _still_down(round_: Round, undone: Event) -> bool:
    """Whether the seat of an event being undone stays down: another of its "went down" events
    of the round still stands (tapped "Went down", then recorded the melds, say)."""
    return (
        round_.events.filter(kind=Event.Kind.WENT_DOWN, seat=undone.seat, undone_by__isnull=True)
        .exclude(pk=undone.pk)
        .exists()
    )


@undoes(Event.Kind.WENT_DOWN)
def _went_down_undo(game: Game, event: Event) -> None:
    TableMeld.objects.filter(pk__in=event.after.get("melds", [])).delete()
    Hand.objects.filter(round=event.round, seat=event.seat).update(
        went_down=_still_down(event.round, event)
    )


def round_end(game: Game, round_: Round, seat: Seat, user, *, melds=()) -> Event:
    """End the round with `seat` out. Going down in a no-discard contract goes out with the whole
    hand: the melds laid are kept on the event, so undo takes them back with it."""
    round_.went_out = seat
    round_.save(update_fields=["went_out", "rummy"])
    how = gettext(" in one turn") if round_.rummy else ""
    if melds:
        how += ": " + " | ".join(meld.cards for meld in melds)
    elif no_discard(game, round_):
        how += gettext(" with the whole hand")
    description = history(Event.Kind.WENT_OUT, player=seat.player, how=how)
    return event_record(
        game, round_, Event.Kind.WENT_OUT, user, description, seat=seat, after=melds_laid(melds)
    )


@table_write
def shanghai_record(
    *, game: Game, seat: Seat, discarder: Seat | None, user, table: Table | None = None
) -> Event:
    """A Shanghai call: `seat` claimed `discarder`'s discard, or protected its own discard."""
    table = table or selectors.table_read(game)
    round_ = round_in_play(game, table)
    hand = table.hand(round_, seat)
    if discarder is None or discarder == seat:
        description = history(Event.Kind.SHANGHAI_PROTECT, player=seat.player)
        hand.protects += 1
        return event_record(game, round_, Event.Kind.SHANGHAI_PROTECT, user, description, seat=seat)
    anyone_down = any(other.went_down for other in table.hands_of(round_))
    refusal = rules.shanghai_claim_refusal(discarder=discarder.player.name, anyone_down=anyone_down)
    if refusal:
        raise ActionRefused(translated(refusal))
    kind = Event.Kind.SHANGHAI_CLAIM
    description = history(
        kind, player=seat.player, discarder=discarder.player, what=gettext("discard")
    )
    hand.claims += 1
    table.hand(round_, discarder).claimed += 1
    return event_record(game, round_, kind, user, description, seat=seat, other_seat=discarder)


@undoes(Event.Kind.SHANGHAI_PROTECT)
def _shanghai_protect_undo(game: Game, event: Event) -> None:
    """Nothing to put back: a protect is counted from the events that stand."""


@table_write
def round_record_went_out(
    *, game: Game, seat: Seat, user, rummy: bool = False, table: Table | None = None
) -> Event:
    """End the current round: `seat` went out, with `rummy` in one turn (from a full hand, not
    down before). Scores are entered next."""
    table = table or selectors.table_read(game)
    round_ = current_round(game, table)
    if round_.went_out_id:
        refusal = gettext("{player} has already gone out this round.")
        raise ActionRefused(refusal.format(player=round_.went_out.player))
    hand = table.hand(round_, seat)
    refusal = rummy and rules.in_one_turn_refusal(player=seat.player.name, went_down=hand.went_down)
    if refusal:
        raise ActionRefused(translated(refusal))
    if not hand.went_down:  # going out goes down, if not before
        hand.went_down = True
        hand.save(update_fields=["went_down"])
    round_.rummy = rummy
    return round_end(game, round_, seat, user)


@undoes(Event.Kind.WENT_OUT)
def _went_out_undo(game: Game, event: Event) -> None:
    round_ = event.round
    round_.went_out, round_.rummy = None, False
    round_.save(update_fields=["went_out", "rummy"])
    _went_down_undo(game, event)
