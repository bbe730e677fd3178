"""The table's taps and score entry: every write carries the version of its screen."""

import re

from django import forms
from django.core.exceptions import ValidationError

import rules
from scorekeeper.models import Game, Hand, Round, Seat

# The largest id a row can have on every database we run on (PostgreSQL's bigint).
MAX_ROW_ID = 2**63 - 1


def row_id(value) -> int | None:
    """A row id sent by a page, or None: ASCII digits only ("²".isdigit() is true), in range."""
    text = str(value or "").strip()
    if not re.fullmatch(r"[0-9]{1,19}", text) or not 0 < int(text) <= MAX_ROW_ID:
        return None
    return int(text)


class VersionedForm(forms.Form):
    """Every write to a table carries the version of the screen it was made on."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, *args, game: Game | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game


class SeatField(forms.ModelChoiceField):
    """One of the table's seats, picked from the seats already read with the table: checking
    the choice reads nothing more. Refuses anything else as a ModelChoiceField does."""

    def __init__(self, **kwargs):
        super().__init__(queryset=Seat.objects.none(), **kwargs)
        self.seats = {}

    def to_python(self, value):
        if value in self.empty_values:
            return None
        self.validate_no_null_characters(value)
        seat = self.seats.get(row_id(value))
        if seat is None:
            message = self.error_messages["invalid_choice"]
            raise ValidationError(message, code="invalid_choice", params={"value": value})
        return seat


class SeatActionForm(VersionedForm):
    """A tap on a seat's row; `seats` are the table's, with their players."""

    seat = SeatField()

    def __init__(self, *args, game: Game, seats: list[Seat], **kwargs):
        super().__init__(*args, game=game, **kwargs)
        by_id = {seat.pk: seat for seat in seats}
        for field in self.fields.values():
            if isinstance(field, SeatField):
                field.seats = by_id


class WentOutForm(SeatActionForm):
    rummy = forms.BooleanField(required=False)


class ShanghaiForm(SeatActionForm):
    discarder = SeatField(required=False)


class ScoreForm(VersionedForm):
    """What each player who did not go out was left holding: cards (ranks will do) or points.

    Editing a finished round, who went out (and whether in one turn) can be corrected too: then
    every player has a row, and the one who went out scores 0 whatever their row says. A round
    nobody has gone out of, or a game over (`round_` None), has no row: the score service says
    why it cannot be scored."""

    def __init__(
        self,
        *args,
        round_: Round | None,
        hands: list[Hand] | None = None,
        editing: bool = False,
        entered: dict[int, tuple[str, int]] | None = None,
        **kwargs,
    ):
        """`hands` are the round's in seat order, if they were read with it; `entered`, by
        seat id, what a save that was undone had, to be shown again."""
        super().__init__(*args, **kwargs)
        self.round = round_
        self.entry_seats = []
        if editing:
            self.fields["went_out"] = forms.ModelChoiceField(
                queryset=Seat.objects.filter(game_id=round_.game_id).select_related("player"),
                initial=round_.went_out_id,
                empty_label=None,
                required=False,  # not sent: unchanged
                label="Went out",
                error_messages={"invalid_choice": "Pick a player of this table."},
            )
            self.fields["went_out"].label_from_instance = lambda seat: seat.player.name
            self.fields["rummy"] = forms.BooleanField(
                required=False, initial=round_.rummy, label="in one turn"
            )
        being_scored = round_ is not None and (editing or round_.went_out_id is not None)
        if hands is None and being_scored:
            hands = round_.hands.all()
        for hand in hands if being_scored else ():
            if hand.seat_id == round_.went_out_id and not editing:
                continue
            self.fields[f"cards_{hand.seat_id}"] = forms.CharField(
                required=False, max_length=200, label="Cards"
            )
            self.fields[f"points_{hand.seat_id}"] = forms.IntegerField(
                required=False, min_value=0, max_value=10000, label="or points"
            )
            cards, points = (
                (hand.cards, hand.points)
                if editing
                else (entered or {}).get(hand.seat_id, ("", None))
            )
            if points is not None and not self.is_bound:
                self.initial[f"cards_{hand.seat_id}"] = cards
                if not cards:
                    self.initial[f"points_{hand.seat_id}"] = points
            self.entry_seats.append(hand.seat_id)

    def rows(self, lines):
        """(line, cards field, points field) for each player who enters a hand."""
        by_seat = {line.seat.pk: line for line in lines}
        return [
            (by_seat[seat_id], self[f"cards_{seat_id}"], self[f"points_{seat_id}"])
            for seat_id in self.entry_seats
        ]

    def clean(self):
        cleaned = super().clean()
        entries = {}
        went_out = cleaned.get("went_out")
        for seat_id in self.entry_seats:
            if went_out is not None and seat_id == went_out.pk:
                continue  # they scored 0: what their row says is ignored
            text = cleaned.get(f"cards_{seat_id}") or ""
            points = cleaned.get(f"points_{seat_id}")
            if text.strip() and points is not None:
                self.add_error(
                    f"points_{seat_id}", "Enter the cards or the points, not both: clear one."
                )
            elif text.strip():
                try:
                    cards = tuple(rules.parse_ranks(text))
                except rules.CardError as error:
                    self.add_error(f"cards_{seat_id}", str(error))
                    continue
                entries[seat_id] = rules.HandEntry(cards=cards)
            elif points is not None:
                entries[seat_id] = rules.HandEntry(points=points)
        cleaned["entries"] = entries
        return cleaned
