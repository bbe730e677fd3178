"""Undo: the table's last change that stands is taken back, by one small function per kind of
event, each reading the payload that kind's builder in `events` wrote."""

from django.db.models import F, Q

from scorekeeper.actions import history
from scorekeeper.models import Event, Game, Hand, Round, TableMeld

from .events import event_record
from .ratings import results_refresh
from .refusals import ActionRefused
from .tables import table_write


def _still_down(round_: Round, undone: Event) -> bool:
    """Whether the seat of an event being undone stays down: another of its "went down" events
    of the round still stands (tapped "Went down", then recorded the melds, say)."""
    return (
        round_.events.filter(kind=Event.Kind.WENT_DOWN, seat=undone.seat, undone_by__isnull=True)
        .exclude(pk=undone.pk)
        .exists()
    )


def _may_i_undo(game: Game, event: Event) -> None:
    Hand.objects.filter(round=event.round, seat=event.seat).update(may_i_used=F("may_i_used") - 1)


def _went_down_undo(game: Game, event: Event) -> None:
    TableMeld.objects.filter(pk__in=event.after.get("melds", [])).delete()
    Hand.objects.filter(round=event.round, seat=event.seat).update(
        went_down=_still_down(event.round, event)
    )


def _went_out_undo(game: Game, event: Event) -> None:
    round_ = event.round
    round_.went_out, round_.rummy = None, False
    round_.save(update_fields=["went_out", "rummy"])
    _went_down_undo(game, event)


def _meld_change_undo(game: Game, event: Event) -> None:
    """A lay-off, or a Shanghai claim laid onto a meld: the meld gets its cards back."""
    if "meld" in event.before:
        TableMeld.objects.filter(pk=event.before["meld"]).update(cards=event.before["cards"])


def _round_scored_undo(game: Game, event: Event) -> None:
    round_ = event.round
    following = game.rounds.filter(number=round_.number + 1)
    if following.filter(Q(checks__isnull=False) | Q(photos__isnull=False)).exists():
        raise ActionRefused(
            f"Contract {round_.number + 1} already has checks or photos, so contract "
            f"{round_.number} cannot be reopened: edit its scores from the scoreboard."
        )
    following.delete()
    round_.hands.update(cards="", points=None)
    round_.finished_at = None
    round_.save(update_fields=["finished_at"])
    if game.finished_at:
        game.finished_at = None
        game.save(update_fields=["finished_at"])
        results_refresh(game=game)


def _score_edited_undo(game: Game, event: Event) -> None:
    round_ = event.round
    round_.went_out_id = event.before.get("went_out", round_.went_out_id)
    round_.rummy = event.before.get("rummy", round_.rummy)
    round_.save(update_fields=["went_out", "rummy"])
    hands = Event.hands_in(event.before)
    down = event.before.get("down")
    for hand in round_.hands.all():
        hand.cards, hand.points = hands[hand.seat_id]
        if down is not None:  # edits kept before "down" was recorded leave it as it is
            hand.went_down = hand.seat_id in down
        hand.save(update_fields=["cards", "points", "went_down"])
    if game.finished_at:
        results_refresh(game=game)


UNDO = {
    Event.Kind.MAY_I: _may_i_undo,
    Event.Kind.WENT_DOWN: _went_down_undo,
    Event.Kind.WENT_OUT: _went_out_undo,
    Event.Kind.SHANGHAI_CLAIM: _meld_change_undo,
    Event.Kind.SHANGHAI_PROTECT: lambda game, event: None,
    Event.Kind.LAID_OFF: _meld_change_undo,
    Event.Kind.ROUND_SCORED: _round_scored_undo,
    Event.Kind.SCORE_EDITED: _score_edited_undo,
}


@table_write
def action_undo(*, game: Game, user) -> Event:
    """Take back the table's last action that has not been taken back yet."""
    last = (
        game.events.filter(kind__in=UNDO, undone_by__isnull=True)
        .select_related("round", "seat__player")
        .order_by("-pk")
        .first()
    )
    if last is None:
        raise ActionRefused("There is nothing to undo.")
    UNDO[last.kind](game, last)
    description = history(Event.Kind.UNDO, undone=last.description)
    return event_record(
        game, last.round, Event.Kind.UNDO, user, description, seat=last.seat, undoes=last
    )
