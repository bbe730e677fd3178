"""Cards and their notation (docs/rules.md, "The cards"): parsing, formatting, deck checks."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from .messages import Message, _, ngettext_lazy

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"

RANK_VALUE = {rank: value for value, rank in enumerate(RANKS, start=2)}
VALUE_RANK = {value: rank for rank, value in RANK_VALUE.items()}
VALUE_RANK[1] = "A"

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}
RANK_PLURAL = {
    "2": _("twos"),
    "3": _("threes"),
    "4": _("fours"),
    "5": _("fives"),
    "6": _("sixes"),
    "7": _("sevens"),
    "8": _("eights"),
    "9": _("nines"),
    "10": _("tens"),
    "J": _("jacks"),
    "Q": _("queens"),
    "K": _("kings"),
    "A": _("aces"),
}

_SYMBOL_SUIT = {
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}
_JOKER_WORDS = {"JK", "JOKER", "*", "🃏"}
_RANK_WORDS = {rank: rank for rank in RANKS} | {"T": "10"}
_MELD_SEPARATORS = re.compile(r"[|/;\n\r]")
_CARD_SEPARATORS = re.compile(r"[\s,]+")
_DECLARED = re.compile(r"^(JK|JOKER|\*|🃏)(?:=(.*)|\((.*)\))$")

RANKS_HELP = _("ranks are 2-10, J, Q, K, A")
SUITS_HELP = _("suits are S, H, D, C (or ♠ ♥ ♦ ♣)")


class CardError(ValueError):
    """A card, or some text meant as cards, that the notation does not allow; its one argument
    is the Message saying why."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card. A joker has rank "JK", no suit, and may be declared to stand for a card.

    A card entered by rank alone (for scoring) has suit None.
    """

    rank: str
    suit: str | None
    declared: Card | None = None

    def __post_init__(self) -> None:
        if self.rank == JOKER:
            if self.suit is not None:
                raise CardError(_("a joker has no suit"))
            if self.declared is not None and self.declared.is_joker:
                raise CardError(_("a joker cannot stand for another joker"))
            return
        if self.rank not in RANK_VALUE:
            raise CardError(_('"{rank}" is not a rank: {help}', rank=self.rank, help=RANKS_HELP))
        if self.suit is not None and self.suit not in SUITS:
            raise CardError(_('"{suit}" is not a suit: {help}', suit=self.suit, help=SUITS_HELP))
        if self.declared is not None:
            raise CardError(_("only a joker can be declared to stand for a card"))

    @property
    def is_joker(self) -> bool:
        """True for a joker, declared or not."""
        return self.rank == JOKER

    @property
    def value(self) -> int:
        """Rank as a number, 2 to 14 (ace high); 0 for a joker."""
        return RANK_VALUE.get(self.rank, 0)

    def __str__(self) -> str:
        if self.is_joker:
            return JOKER if self.declared is None else f"{JOKER}={self.declared}"
        return self.rank + (self.suit or "")

    def symbol(self) -> str:
        """The card with a suit symbol, e.g. 10♥ or JK=9♥, for display."""
        if self.is_joker:
            return JOKER if self.declared is None else f"{JOKER}={self.declared.symbol()}"
        return self.rank + (SUIT_SYMBOL[self.suit] if self.suit else "")


def card_sort_key(card: Card) -> tuple[int, int, str]:
    """Sort by rank, then suit; jokers last."""
    if card.is_joker:
        return (99, 0, str(card))
    return (card.value, SUITS.index(card.suit) if card.suit else -1, "")


def _clean(token: str) -> str:
    return token.replace("\ufe0f", "").strip().upper()


def _parse_plain(token: str, original: str, need_suit: bool) -> Card:
    """Parse a rank with optional suit before or after it, e.g. 10H, H10, ♥10, 10."""
    text = token
    for symbol, letter in _SYMBOL_SUIT.items():
        text = text.replace(symbol, letter)
    if not text:
        raise CardError(
            _('"{text}" is not a card: expected a rank and a suit, like 7H', text=original)
        )
    suit = None
    rank_text = text
    if text in _RANK_WORDS:
        rank_text = text
    elif text[-1] in SUITS and text[:-1]:
        suit, rank_text = text[-1], text[:-1]
    elif text[0] in SUITS and text[1:]:
        suit, rank_text = text[0], text[1:]
    elif len(text) > 1 and text[-1].isalpha() and text[:-1] in _RANK_WORDS:
        raise CardError(_('"{text}" is not a card: {help}', text=original, help=SUITS_HELP))
    rank = _RANK_WORDS.get(rank_text)
    if rank is None:
        raise CardError(_('"{text}" is not a card: {help}', text=original, help=RANKS_HELP))
    if suit is None and need_suit:
        raise CardError(
            _('"{text}" is not a card: it needs a suit: S, H, D, C (or ♠ ♥ ♦ ♣)', text=original)
        )
    return Card(rank, suit)


def _parse_token(token: str, need_suit: bool = True) -> Card:
    text = _clean(token)
    if text in _JOKER_WORDS:
        return Card(JOKER, None)
    declared = _DECLARED.match(text)
    if declared:
        inner = declared.group(2) if declared.group(2) is not None else declared.group(3)
        if _clean(inner) in _JOKER_WORDS or _DECLARED.match(_clean(inner)):
            raise CardError(
                _('"{text}" is not a card: a joker cannot stand for another joker', text=token)
            )
        try:
            # A joker in a book may stand for the rank alone (JK=8).
            target = _parse_plain(_clean(inner), inner, need_suit=False)
        except CardError as error:
            raise CardError(
                _(
                    '"{text}" is not a card: the joker\'s card {problem}',
                    text=token,
                    problem=error.args[0],
                )
            ) from None
        return Card(JOKER, None, target)
    return _parse_plain(text, token, need_suit)


def _tokens(text: str) -> list[str]:
    return [token for token in _CARD_SEPARATORS.split(text) if token]


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas, e.g. "7H 8H, JK=9H ♥10".

    Raises CardError naming the first bad token. Meld separators are allowed; the cards of
    every meld are returned as one list.
    """
    if not isinstance(text, str):
        raise CardError(_("expected text with cards, like 7H 8H 9H"))
    if _MELD_SEPARATORS.search(text):
        cards: list[Card] = []
        for group in parse_melds(text):
            cards.extend(group)
        return cards
    return [_parse_token(token) for token in _tokens(text)]


def parse_melds(text: str) -> list[list[Card]]:
    """Parse melds separated by |, /, ; or new lines; empty groups are skipped."""
    if not isinstance(text, str):
        raise CardError(_("expected text with melds, like 3S 4S 5S 6S | 9D 9H 9C"))
    groups = []
    for part in _MELD_SEPARATORS.split(text):
        tokens = _tokens(part)
        if tokens:
            groups.append([_parse_token(token) for token in tokens])
    return groups


def parse_ranks(text: str) -> list[Card]:
    """Parse a hand for scoring, where suits may be left out: "K K 7 JK 10 A".

    Tokens without a suit become Cards with suit None; full cards keep their suit.
    """
    if not isinstance(text, str):
        raise CardError(_("expected text with cards, like K K 7 JK"))
    cards = []
    for part in _MELD_SEPARATORS.split(text):
        cards.extend(_parse_token(token, need_suit=False) for token in _tokens(part))
    return cards


def cards_written(text: str) -> int:
    """How many cards `text` holds, each a card or not yet: what the count check counts while
    a hand is typed."""
    return sum(len(_tokens(part)) for part in _MELD_SEPARATORS.split(text))


@cache
def rank_spellings() -> Mapping[str, str]:
    """Every way `parse_ranks` reads one card (a declared joker aside), in capitals and without
    an emoji's variation selector, to its rank: the table a page's live total looks each card
    typed up in, so that no script parses the notation again. Built once (2 ms)."""
    suits = ("", *SUITS, *_SYMBOL_SUIT)
    written = [*_JOKER_WORDS]
    for rank in _RANK_WORDS:
        written += [rank + suit for suit in suits] + [suit + rank for suit in suits]
    spellings = {}
    for text in written:
        try:
            spellings[text] = _parse_token(text, need_suit=False).rank
        except CardError:
            continue
    return MappingProxyType(spellings)


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Canonical notation, e.g. "10H JD JK=9H"; with symbols=True, "10♥ J♦ JK=9♥"."""
    return " ".join(card.symbol() if symbols else str(card) for card in cards)


def format_melds(melds: Iterable[Iterable[Card]], symbols: bool = False) -> str:
    """Melds in canonical notation separated by " | "."""
    return " | ".join(format_cards(meld, symbols) for meld in melds)


_NUMBER_WORDS = (
    _("no"),
    _("one"),
    _("two"),
    _("three"),
    _("four"),
    _("five"),
    _("six"),
    _("seven"),
    _("eight"),
    _("nine"),
    _("ten"),
)


def _number_word(count: int) -> Message | str:
    return _NUMBER_WORDS[count] if count < len(_NUMBER_WORDS) else str(count)


def _decks(decks: int) -> Message:
    """ "one deck", "two decks"."""
    return ngettext_lazy("one deck", "{count} decks", decks, count=_number_word(decks))


def card_problems(cards: Iterable[Card], decks: int, jokers: int) -> list[Message]:
    """Sentences for cards the decks cannot hold: too many copies, of a rank, or of jokers."""
    cards = list(cards)
    problems = []
    deck_words = _decks(decks)
    copies = Counter(card for card in cards if not card.is_joker and card.suit is not None)
    for card, count in sorted(copies.items(), key=lambda item: card_sort_key(item[0])):
        if count > decks:
            problems.append(
                _(
                    "There are {count} {card}: {decks} hold only {most}.",
                    count=_number_word(count),
                    card=str(card),
                    decks=deck_words,
                    most=_number_word(decks),
                )
            )
    ranks = Counter(card.rank for card in cards if not card.is_joker)
    for rank in RANKS:
        if ranks[rank] > 4 * decks:
            problems.append(
                _(
                    "There are {count} {ranks}: {decks} hold only {most}.",
                    count=ranks[rank],
                    ranks=RANK_PLURAL[rank],
                    decks=deck_words,
                    most=4 * decks,
                )
            )
    joker_count = sum(1 for card in cards if card.is_joker)
    if joker_count > jokers:
        if joker_count == 1:
            held = _("There is one joker")
        elif joker_count <= 10:
            held = _("There are {count} jokers", count=_number_word(joker_count))
        else:
            held = _("There are {count} jokers", count=joker_count)
        allowed = (
            _("the game has no jokers")
            if jokers == 0
            else ngettext_lazy(
                "the game has only one",
                "the game has only {count}",
                jokers,
                count=_number_word(jokers),
            )
        )
        problems.append(_("{held}: {allowed}.", held=held, allowed=allowed))
    return problems
