"""The table's history: every change is an Event, and each kind's `before` / `after` payload is
built here, by one function a shape, so that undo and the history read one shape a kind. Each
kind's undo, beside its service, is registered here with `@undoes` for `undo.action_undo`."""

from collections.abc import Callable, Iterable

from scorekeeper.models import Event, Game, Round, TableMeld


def event_record(game: Game, round_: Round, kind: Event.Kind, user, description: str, **fields):
    """Keep one change of the table in its history; `fields` are the event's seat, other_seat,
    before and after, as the kind has them."""
    return Event.objects.create(
        game=game, round=round_, kind=kind, description=description, created_by=user, **fields
    )


# The undo of each kind that can be taken back: called with the table and the event to take
# back, inside the undo's write; it may refuse (ActionRefused).
UNDO: dict[str, Callable[[Game, Event], None]] = {}


def undoes(*kinds: Event.Kind):
    """Register the decorated function as the undo of events of `kinds`."""

    def register(undo):
        for kind in kinds:
            UNDO[kind] = undo
        return undo

    return register


def melds_laid(melds: Iterable[TableMeld]) -> dict:
    """WENT_DOWN and WENT_OUT `after`: the melds laid on the table, which undo takes back."""
    pks = [meld.pk for meld in melds]
    return {"melds": pks} if pks else {}


def meld_cards(meld: TableMeld, cards: str) -> dict:
    """LAID_OFF and SHANGHAI_CLAIM `before` and `after`: a table meld's cards."""
    return {"meld": meld.pk, "cards": cards}


def round_hands(
    round_: Round, hands: dict[int, tuple[str, int]], *, down: set[int] | None = None
) -> dict:
    """ROUND_SCORED `after`, SCORE_EDITED `before` and `after`: each seat's cards and points by
    seat id, who went out (and whether in one turn), and for an edit, which seats went down."""
    payload = {str(seat_id): [cards, points] for seat_id, (cards, points) in hands.items()}
    payload |= {"went_out": round_.went_out_id, "rummy": round_.rummy}
    if down is not None:
        payload["down"] = sorted(down)
    return payload
