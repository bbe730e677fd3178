"""What a club import checks of each value of the file beyond its column: the type JSON gave it,
and the bounds and notations the app's forms and services write by, so that an import never
stores a value the app itself could not have written (services/imports.py restores the rows)."""

import json
import math

from django.conf import settings
from django.db import models

import rules
from scorekeeper.models import Check, Game, Hand, Result, Round, Seat, TableMeld

from .clubs import players_cap_words
from .refusals import ImportRefused

# What a column takes from JSON, in words: JSON's true is no number and its 1e999 no number at
# all (Python reads it as infinity), and ["a"] is no name.
_TYPES = [
    (models.BooleanField, (bool,), "true or false"),
    (models.IntegerField, (int,), "a whole number"),
    (models.FloatField, (int, float), "a number"),
    (models.CharField, (str,), "text"),
    (models.TextField, (str,), "text"),
    (models.DateField, (str,), "a date"),  # a DateTimeField is one
]


def _shown(value) -> str:
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 40 else shown[:39] + "…"


def value_typed(model, field, value):
    """`value` as the file gives it for `field`, refused in words unless JSON gave the type the
    column holds (None is left to the column's own check); a JSON column's value must hold only
    finite numbers, as JSON itself does."""
    if value is None:
        return value
    name = model._meta.verbose_name
    if isinstance(field, models.JSONField):
        try:
            json.dumps(value, allow_nan=False)
        except ValueError:
            words = f"A {name}'s {field.name} holds a number that is not one"
            raise ImportRefused(f"{words} (infinite, or NaN).") from None
        return value
    for kind, types, words in _TYPES:
        if isinstance(field, kind):
            finite = not isinstance(value, float) or math.isfinite(value)
            if type(value) not in types or not finite:
                raise ImportRefused(f"A {name}'s {field.name} is not {words}: {_shown(value)}.")
            return value
    return value


def players_check(rows: list) -> None:
    """At most the players a club keeps are playing (not deleted after playing), as adding a
    player refuses: counted before any row is read, so a file of thousands is refused at once."""
    if not isinstance(rows, list):
        return  # refused as such when the players are read
    playing = sum(1 for row in rows if isinstance(row, dict) and row.get("retired") is not True)
    if playing > settings.PLAYERS_PER_CLUB:
        raise ImportRefused(
            f"The file has {playing:,} players: more than {players_cap_words()}. Delete those "
            "who no longer play in the club it comes from, then export and import it again."
        )


def _notation(row, words: str) -> list[rules.Card]:
    """The row's cards read by the parser the app wrote them with (its `card_list`), refused
    unless they read and are written as the app writes them (rules.format_cards)."""
    try:
        cards = row.card_list
    except ValueError as error:  # CardError is a ValueError
        raise ImportRefused(f"{words} are not cards: {error}") from None
    if rules.format_cards(cards) != row.cards:
        raise ImportRefused(
            f"{words} are not written as the app writes them: {_shown(row.cards)} is "
            f"{_shown(rules.format_cards(cards))} here."
        )
    return cards


def _whole(item) -> bool:
    return type(item) is int and item >= 0


def event_payload_check(value, name: str) -> None:
    """An event's `before` or `after` (`name`) in the shapes services/events.py builds, its
    cards in the notation of the rows they come from and go back to on undo (a hand's, a
    meld's): checked before the ids in it are moved to the restored rows."""
    words = f"An event's {name}"
    if not isinstance(value, dict):
        raise ImportRefused(f"{words} is not a record of a change.")
    for key, item in value.items():
        if key.isdecimal():  # a seat's hand: [cards, points]
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
                raise ImportRefused(f"{words} holds a hand that is not cards and points.")
            if not (item[1] is None or _whole(item[1])):
                raise ImportRefused(f"{words} holds points that are not points: {_shown(item)}.")
            _notation(Hand(cards=item[0]), f"A hand's cards in an event's {name}")
        elif key == "cards":
            if not isinstance(item, str):
                raise ImportRefused(f"{words} holds a meld's cards that are not text.")
            _notation(TableMeld(cards=item), f"A meld's cards in an event's {name}")
        elif key in ("went_out", "meld"):
            if not (item is None or _whole(item)):
                raise ImportRefused(f"{words} names a {key} that is no row: {_shown(item)}.")
        elif key == "rummy":
            if type(item) is not bool:
                raise ImportRefused(f"{words} says rummy with no true or false.")
        elif key in ("down", "melds"):
            # Melds taken back by an undo are gone: the history names them as none.
            gone = (None,) if key == "melds" else ()
            if not (isinstance(item, list) and all(one in gone or _whole(one) for one in item)):
                raise ImportRefused(f"{words} names {key} that are not a list of rows.")
        else:
            raise ImportRefused(f"{words} holds what no change records: {_shown(key)}.")


def _hand(hand: Hand) -> None:
    held = _notation(hand, "A hand's cards")
    round_ = hand.round
    house_rules = round_.game.house_rules
    if hand.may_i_limit != house_rules.may_i_limit:
        raise ImportRefused("A hand's May I? limit is not its table's.")
    if hand.cards:
        if len(held) > rules.MAX_CARDS_HELD:
            raise ImportRefused(
                f"A hand holds {len(held)} cards: at most {rules.MAX_CARDS_HELD} are held."
            )
        if hand.points != rules.penalty_points(held, house_rules):
            raise ImportRefused(
                f"A hand's points ({hand.points}) are not those of its cards ({hand.cards})."
            )
    elif hand.points is not None and hand.seat_id == round_.went_out_id:
        if hand.points != 0:
            raise ImportRefused("A player who went out has points left in hand.")
    elif hand.points is not None:
        refusal = rules.points_refusal(
            player="A hand", points=hand.points, most_cards=rules.MAX_CARDS_HELD, rules=house_rules
        )
        if refusal:
            raise ImportRefused(refusal)


def _seat(seat: Seat) -> None:
    most = seat.game.house_rules.max_players
    if not 0 <= seat.position < most:
        raise ImportRefused(f"A seat's position is {seat.position}: its table seats {most}.")


def _round(round_: Round) -> None:
    contracts = round_.game.contract_count
    if not 1 <= round_.number <= contracts:
        raise ImportRefused(f"A round is contract {round_.number}: its table plays {contracts}.")


def _game(game: Game) -> None:
    most = game.house_rules.max_players
    if not 0 <= game.first_dealer < most:
        raise ImportRefused(f"A table's first dealer is seat {game.first_dealer + 1} of {most}.")


def _result(result: Result) -> None:
    game = result.game
    most, contracts = game.house_rules.max_players, game.contract_count
    if result.place > most:
        raise ImportRefused(f"A result's place is {result.place}: its table seats {most}.")
    if not result.rounds_won <= result.rounds <= contracts:
        raise ImportRefused(
            f"A result counts {result.rounds_won} contracts won of {result.rounds}: its table "
            f"plays {contracts}."
        )


_ROWS = {
    Result: _result,
    Hand: _hand,
    Seat: _seat,
    Round: _round,
    Game: _game,
    TableMeld: lambda meld: _notation(meld, "A meld's cards"),
    Check: lambda check: _notation(check, "A checked question's cards"),
}


def row_check(instance) -> None:
    """Refuse a row, its fields each valid, that the app would not have written: cards in
    another notation than the one the app wrote the field in (a hand's ranks or cards, a meld's
    cards), a hand's points that are not its cards', numbers beyond its table's rules."""
    check = _ROWS.get(type(instance))
    if check is not None:
        check(instance)
