"""What a club import checks of each value of the file beyond its column: the type JSON gave it,
and the bounds and notations the app's forms and services write by, so that an import never
stores a value the app itself could not have written (services/imports.py restores the rows)."""

import json
import math

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules
from scorekeeper.models import Check, Game, Hand, Result, Round, Seat, TableMeld
from scorekeeper.rules_words import translated

from .refusals import ImportRefused

# What a column takes from JSON, in words: JSON's true is no number and its 1e999 no number at
# all (Python reads it as infinity), and ["a"] is no name. An import's refusals are said in the
# language of the member who sent the file (services/imports.py runs its task in it); the
# models' and fields' names are the file's own.
_TYPES = [
    (models.BooleanField, (bool,), gettext_lazy("true or false")),
    (models.IntegerField, (int,), gettext_lazy("a whole number")),
    (models.FloatField, (int, float), gettext_lazy("a number")),
    (models.CharField, (str,), gettext_lazy("text")),
    (models.TextField, (str,), gettext_lazy("text")),
    (models.DateField, (str,), gettext_lazy("a date")),  # a DateTimeField is one
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
            words = _("A {name}'s {field} holds a number that is not one (infinite, or NaN).")
            raise ImportRefused(words.format(name=name, field=field.name)) from None
        return value
    for kind, types, words in _TYPES:
        if isinstance(field, kind):
            finite = not isinstance(value, float) or math.isfinite(value)
            if type(value) not in types or not finite:
                refusal = _("A {name}'s {field} is not {words}: {value}.")
                raise ImportRefused(
                    refusal.format(name=name, field=field.name, words=words, value=_shown(value))
                )
            return value
    return value


def players_check(rows: list) -> None:
    """At most the players a club keeps are playing (not deleted after playing), as adding a
    player refuses: counted before any row is read, so a file of thousands is refused at once."""
    if not isinstance(rows, list):
        return  # refused as such when the players are read
    playing = sum(1 for row in rows if isinstance(row, dict) and row.get("retired") is not True)
    if playing > settings.PLAYERS_PER_CLUB:
        refusal = _(
            "The file has {playing} players: more than {most} players, the most a club keeps. "
            "Delete those who no longer play in the club it comes from, then export and import "
            "it again."
        )
        raise ImportRefused(refusal.format(playing=f"{playing:,}", most=settings.PLAYERS_PER_CLUB))


def _notation(row, words: str) -> list[rules.Card]:
    """The row's cards read by the parser the app wrote them with (its `card_list`), refused
    unless they read and are written as the app writes them (rules.format_cards)."""
    try:
        cards = row.card_list
    except ValueError as error:  # CardError is a ValueError
        raise ImportRefused(
            _("{what} are not cards: {error}").format(what=words, error=error)
        ) from None
    if rules.format_cards(cards) != row.cards:
        refusal = _("{what} are not written as the app writes them: {cards} is {written} here.")
        raise ImportRefused(
            refusal.format(
                what=words, cards=_shown(row.cards), written=_shown(rules.format_cards(cards))
            )
        )
    return cards


def _whole(item) -> bool:
    return type(item) is int and item >= 0


def event_payload_check(value, name: str) -> None:
    """An event's `before` or `after` (`name`) in the shapes services/events.py builds, its
    cards in the notation of the rows they come from and go back to on undo (a hand's, a
    meld's): checked before the ids in it are moved to the restored rows."""
    if not isinstance(value, dict):
        raise ImportRefused(_("An event's {name} is not a record of a change.").format(name=name))
    for key, item in value.items():
        if key.isdecimal():  # a seat's hand: [cards, points]
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
                refusal = _("An event's {name} holds a hand that is not cards and points.")
                raise ImportRefused(refusal.format(name=name))
            if not (item[1] is None or _whole(item[1])):
                refusal = _("An event's {name} holds points that are not points: {value}.")
                raise ImportRefused(refusal.format(name=name, value=_shown(item)))
            what = _("A hand's cards in an event's {name}").format(name=name)
            _notation(Hand(cards=item[0]), what)
        elif key == "cards":
            if not isinstance(item, str):
                refusal = _("An event's {name} holds a meld's cards that are not text.")
                raise ImportRefused(refusal.format(name=name))
            what = _("A meld's cards in an event's {name}").format(name=name)
            _notation(TableMeld(cards=item), what)
        elif key in ("went_out", "meld"):
            if not (item is None or _whole(item)):
                refusal = _("An event's {name} names a {key} that is no row: {value}.")
                raise ImportRefused(refusal.format(name=name, key=key, value=_shown(item)))
        elif key == "rummy":
            if type(item) is not bool:
                refusal = _("An event's {name} says rummy with no true or false.")
                raise ImportRefused(refusal.format(name=name))
        elif key in ("down", "melds"):
            # Melds taken back by an undo are gone: the history names them as none.
            gone = (None,) if key == "melds" else ()
            if not (isinstance(item, list) and all(one in gone or _whole(one) for one in item)):
                refusal = _("An event's {name} names {key} that are not a list of rows.")
                raise ImportRefused(refusal.format(name=name, key=key))
        else:
            refusal = _("An event's {name} holds what no change records: {value}.")
            raise ImportRefused(refusal.format(name=name, value=_shown(key)))


def _hand(hand: Hand) -> None:
    held = _notation(hand, _("A hand's cards"))
    round_ = hand.round
    house_rules = round_.game.house_rules
    if hand.may_i_limit != house_rules.may_i_limit:
        raise ImportRefused(_("A hand's May I? limit is not its table's."))
    if hand.cards:
        if len(held) > rules.MAX_CARDS_HELD:
            refusal = _("A hand holds {count} cards: at most {most} are held.")
            raise ImportRefused(refusal.format(count=len(held), most=rules.MAX_CARDS_HELD))
        if hand.points != rules.penalty_points(held, house_rules):
            refusal = _("A hand's points ({points}) are not those of its cards ({cards}).")
            raise ImportRefused(refusal.format(points=hand.points, cards=hand.cards))
    elif hand.points is not None and hand.seat_id == round_.went_out_id:
        if hand.points != 0:
            raise ImportRefused(_("A player who went out has points left in hand."))
    elif hand.points is not None:
        refusal = rules.points_refusal(
            player=_("A hand"),
            points=hand.points,
            most_cards=rules.MAX_CARDS_HELD,
            rules=house_rules,
        )
        if refusal:
            raise ImportRefused(translated(refusal))


def _seat(seat: Seat) -> None:
    most = seat.game.house_rules.max_players
    if not 0 <= seat.position < most:
        refusal = _("A seat's position is {position}: its table seats {most}.")
        raise ImportRefused(refusal.format(position=seat.position, most=most))


def _round(round_: Round) -> None:
    contracts = round_.game.contract_count
    if not 1 <= round_.number <= contracts:
        refusal = _("A round is contract {number}: its table plays {contracts}.")
        raise ImportRefused(refusal.format(number=round_.number, contracts=contracts))


def _game(game: Game) -> None:
    most = game.house_rules.max_players
    if not 0 <= game.first_dealer < most:
        refusal = _("A table's first dealer is seat {seat} of {most}.")
        raise ImportRefused(refusal.format(seat=game.first_dealer + 1, most=most))


def _result(result: Result) -> None:
    game = result.game
    most, contracts = game.house_rules.max_players, game.contract_count
    if result.place > most:
        refusal = _("A result's place is {place}: its table seats {most}.")
        raise ImportRefused(refusal.format(place=result.place, most=most))
    if not result.rounds_won <= result.rounds <= contracts:
        refusal = _("A result counts {won} contracts won of {rounds}: its table plays {contracts}.")
        raise ImportRefused(
            refusal.format(won=result.rounds_won, rounds=result.rounds, contracts=contracts)
        )


_ROWS = {
    Result: _result,
    Hand: _hand,
    Seat: _seat,
    Round: _round,
    Game: _game,
    TableMeld: lambda meld: _notation(meld, _("A meld's cards")),
    Check: lambda check: _notation(check, _("A checked question's cards")),
}


def row_check(instance) -> None:
    """Refuse a row, its fields each valid, that the app would not have written: cards in
    another notation than the one the app wrote the field in (a hand's ranks or cards, a meld's
    cards), a hand's points that are not its cards', numbers beyond its table's rules."""
    check = _ROWS.get(type(instance))
    if check is not None:
        check(instance)
