"""The table's taps and score entry: every write carries the version of its screen."""

import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext

import rules
from scorekeeper.models import Game, Hand, Round, Seat
from scorekeeper.rules_words import translated

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


class RowChoiceField(forms.ModelChoiceField):
    """A ModelChoiceField that takes a row's id in ASCII digits only: int() reads "١٢" and
    "１２" as 12, which the page never sends."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        pk = row_id(value)
        if pk is None:
            message = self.error_messages["invalid_choice"]
            raise ValidationError(message, code="invalid_choice", params={"value": value})
        return super().to_python(str(pk))


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


# The count of cards in words: the words translated ("una", "dos": a card is feminine in Spanish).
NUMBER_WORDS = (
    gettext_noop("no"),
    gettext_noop("one"),
    gettext_noop("two"),
    gettext_noop("three"),
    gettext_noop("four"),
    gettext_noop("five"),
    gettext_noop("six"),
    gettext_noop("seven"),
    gettext_noop("eight"),
    gettext_noop("nine"),
    gettext_noop("ten"),
)


def cards_in_words(count: int) -> str:
    """ "Two cards", "One card", "12 cards": a count of cards as a sentence starts."""
    words = _(NUMBER_WORDS[count]) if count < len(NUMBER_WORDS) else str(count)
    text = ngettext("%(words)s card", "%(words)s cards", count) % {"words": words}
    return text[0].upper() + text[1:]


def count_problem(held: int, entered: int) -> str:
    """What the count check says of a hand said to hold `held` cards with `entered` entered,
    when it is saved and while its cards are entered (`count_said`)."""
    numbers = {"held": held, "entered": entered}
    if entered < held:
        numbers["missing"] = cards_in_words(held - entered)
        return (
            ngettext(
                "%(missing)s missing: this hand holds %(held)s and %(entered)s are entered. "
                "Add it, or tap how many it holds.",
                "%(missing)s missing: this hand holds %(held)s and %(entered)s are entered. Add "
                "them, or tap how many it holds.",
                held - entered,
            )
            % numbers
        )
    numbers["extra"] = cards_in_words(entered - held)
    return (
        ngettext(
            "%(extra)s too many: this hand holds %(held)s and %(entered)s are entered. Take it "
            "out, or tap how many it holds.",
            "%(extra)s too many: this hand holds %(held)s and %(entered)s are entered. Take them "
            "out, or tap how many it holds.",
            entered - held,
        )
        % numbers
    )


def count_said(held: int, entered: int) -> str:
    """What the count check says while a hand's cards are entered (held.html asks the server as
    they change): nothing before the first card, else whether they are all there."""
    if not entered:
        return ""
    if entered == held:
        return ngettext("The card is entered.", "All %(count)s cards are entered.", held) % {
            "count": held
        }
    return count_problem(held, entered)


@dataclass(frozen=True)
class ScoreRow:
    """One hand of the score entry: its player's line, its fields, what its photos read and
    its count check's numbers (None where the page has no photos)."""

    line: Any
    cards: forms.BoundField
    points: forms.BoundField
    held: forms.BoundField
    reading: Any = None
    count: Any = None

    @property
    def held_value(self) -> int | None:
        value = self.held.value()
        try:
            return int(value) if value not in (None, "") else None
        except (TypeError, ValueError):
            return None


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
        count_check: bool = True,
        **kwargs,
    ):
        """`hands` are the round's in seat order, if they were read with it; `entered`, by
        seat id, what a save that was undone had, to be shown again. Without `count_check`,
        the counts said are kept but not checked: the entry is shown again, not saved."""
        super().__init__(*args, **kwargs)
        self.round = round_
        self.count_check = count_check
        self.entry_seats = []
        if editing:
            self.fields["went_out"] = RowChoiceField(
                queryset=Seat.objects.filter(game_id=round_.game_id).select_related("player"),
                initial=round_.went_out_id,
                empty_label=None,
                required=False,  # not sent: unchanged
                label=gettext_lazy("Went out"),
                error_messages={"invalid_choice": gettext_lazy("Pick a player of this table.")},
            )
            self.fields["went_out"].label_from_instance = lambda seat: seat.player.name
            self.fields["rummy"] = forms.BooleanField(
                required=False, initial=round_.rummy, label=gettext_lazy("in one turn")
            )
        being_scored = round_ is not None and (editing or round_.went_out_id is not None)
        if hands is None and being_scored:
            hands = round_.hands.all()
        for hand in hands if being_scored else ():
            if hand.seat_id == round_.went_out_id and not editing:
                continue
            self.fields[f"cards_{hand.seat_id}"] = forms.CharField(
                required=False, max_length=200, label=gettext_lazy("Cards")
            )
            self.fields[f"points_{hand.seat_id}"] = forms.IntegerField(
                required=False, min_value=0, max_value=10000, label=gettext_lazy("or points")
            )
            # The count check: how many cards the player says the hand holds, when they said.
            self.fields[f"held_{hand.seat_id}"] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=rules.MAX_CARDS_HELD,
                label=gettext_lazy("Cards held"),
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

    def rows(self, lines, *, readings=None, held=None) -> list["ScoreRow"]:
        """A row for each player who enters a hand, with what its photos read (`readings`) and
        its count check's numbers (`held`), both by seat id, where the page has them."""
        by_seat = {line.seat.pk: line for line in lines}
        return [
            ScoreRow(
                line=by_seat[seat_id],
                cards=self[f"cards_{seat_id}"],
                points=self[f"points_{seat_id}"],
                held=self[f"held_{seat_id}"],
                reading=(readings or {}).get(seat_id),
                count=(held or {}).get(seat_id),
            )
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
                    f"points_{seat_id}", _("Enter the cards or the points, not both: clear one.")
                )
            elif text.strip():
                try:
                    cards = tuple(rules.parse_ranks(text))
                except rules.CardError as error:
                    self.add_error(f"cards_{seat_id}", translated(error.args[0]))
                    continue
                held = cleaned.get(f"held_{seat_id}")
                if self.count_check and held is not None and len(cards) != held:
                    self.add_error(f"cards_{seat_id}", count_problem(held, len(cards)))
                    continue
                entries[seat_id] = rules.HandEntry(cards=cards)
            elif points is not None:
                entries[seat_id] = rules.HandEntry(points=points)
        cleaned["entries"] = entries
        return cleaned
