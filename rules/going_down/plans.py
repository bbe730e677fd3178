"""Melds as the search sees them: plans over counted cards, their conflicts, and the melds
built from them.

The search counts cards by key: a natural card is (rank value, suit index); a joker declared
by the player is ("d", rank value, suit index or -1 for a rank alone); an undeclared joker is
FREE, as all undeclared jokers are interchangeable.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import JOKER, RANK_VALUE, SUITS, VALUE_RANK, Card
from ..house_rules import HouseRules
from ..melds import Meld, book_options

FREE = "f"  # resource key of an undeclared joker


@dataclass(slots=True)
class Plan:
    """A meld chosen by the search, before its cards are built."""

    kind: str
    uses: tuple[tuple[object, int], ...]  # resource key -> count
    points: int
    value: int  # book rank value, or run start position
    suit: int  # run suit index; -1 for a book
    end: int  # run end position
    slots: tuple[object, ...] = ()  # run: source of each position; book: jokers' keys
    meld: Meld | None = None  # set when the meld was checked whole (last meld of a cover)


def is_joker_key(key: object) -> bool:
    """Whether a resource key counts jokers (declared or not)."""
    return key == FREE or key[0] == "d"


def rank_of(position: int) -> int:
    """The rank value at a run position (position 1 is the low ace)."""
    return 14 if position == 1 else position


def key_of(card: Card) -> object:
    """The resource key a card is counted under."""
    if card.is_joker and card.declared is None:
        return FREE
    if card.is_joker:
        target = card.declared
        return ("d", RANK_VALUE[target.rank], SUITS.index(target.suit) if target.suit else -1)
    return (RANK_VALUE[card.rank], SUITS.index(card.suit))


def card_of(key: object) -> Card:
    """One card counted under a resource key."""
    if key == FREE:
        return Card(JOKER, None)
    if key[0] == "d":
        _, value, suit = key
        return Card(JOKER, None, Card(VALUE_RANK[value], SUITS[suit] if suit >= 0 else None))
    value, suit = key
    return Card(VALUE_RANK[value], SUITS[suit])


def plan_of(meld: Meld, count: dict[object, int], key_points: dict[object, int]) -> Plan:
    """The plan of the last meld of a cover, which takes every card still counted."""
    uses = tuple((key, n) for key, n in count.items() if n)
    points = sum(key_points[key] * n for key, n in uses)
    if meld.kind == "book":
        value = RANK_VALUE[meld.rank]
        return Plan("book", uses, points, value, -1, value, meld=meld)
    low, high = meld.span
    return Plan("run", uses, points, low, SUITS.index(meld.suit), high, meld=meld)


def conflict(plan: Plan, chosen: list[Plan], rules: HouseRules) -> str | None:
    """The initial-meld rule this plan breaks together with the melds already chosen."""
    for other in chosen:
        if plan.kind != other.kind:
            continue
        if plan.kind == "book":
            if rules.same_rank_books_banned and plan.value == other.value:
                return "same_rank"
            continue
        if plan.suit != other.suit:
            continue
        if rules.same_suit_runs_must_be_separated:
            if not (plan.end + 1 < other.value or other.end + 1 < plan.value):
                return "separated"
        elif plan.end + 1 == other.value or other.end + 1 == plan.value:
            return "consecutive"
    return None


def build(plan: Plan, rules: HouseRules) -> Meld:
    """The meld a plan stands for, jokers declared."""
    if plan.meld is not None:
        return plan.meld
    if plan.kind == "run":
        suit = SUITS[plan.suit]
        cards = []
        for position, source in zip(range(plan.value, plan.end + 1), plan.slots, strict=True):
            rank = VALUE_RANK[position]
            if is_joker_key(source):
                cards.append(Card(JOKER, None, Card(rank, suit)))
            else:
                cards.append(Card(rank, suit))
        return Meld("run", tuple(cards))
    rank = VALUE_RANK[plan.value]
    naturals = []
    for key, n in plan.uses:
        if is_joker_key(key):
            continue
        naturals.extend([Card(rank, SUITS[key[1]])] * n)
    jokers = [card_of(key) for key in plan.slots]
    # The jokers stand for the rank, or the suits left, exactly as a book checked alone.
    return book_options(naturals + jokers, rules)[0]
