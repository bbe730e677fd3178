"""Undo: the table's last change that stands is taken back, by the undo its kind registered
beside its service (`events.undoes`), reading the payload that kind's builder in `events` wrote."""

from django.utils.translation import gettext

from scorekeeper.actions import history
from scorekeeper.models import Event, Game

from .events import UNDO, event_record
from .refusals import ActionRefused
from .tables import table_write


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
        raise ActionRefused(gettext("There is nothing to undo."))
    UNDO[last.kind](game, last)
    description = history(Event.Kind.UNDO, undone=last.description)
    return event_record(
        game, last.round, Event.Kind.UNDO, user, description, seat=last.seat, undoes=last
    )
