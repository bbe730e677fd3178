"""Single melds: what a set of cards can be, and why not when they are not one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import (
    JOKER,
    RANK_PLURAL,
    RANK_VALUE,
    SUIT_NAME,
    SUITS,
    VALUE_RANK,
    Card,
    card_problems,
    card_sort_key,
    format_cards,
)
from .house_rules import HouseRules
from .messages import Message, _, and_joined, ngettext_lazy

DEFAULT_RULES = HouseRules()


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal meld: a book or a run, its cards in display order.

    Runs are in rank order with each joker in its place; every joker carries `declared=`,
    the card it stands for (in a book, the rank alone unless book suits must differ).
    """

    kind: str
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return format_cards(self.cards)

    @property
    def jokers(self) -> int:
        """How many jokers the meld holds."""
        return sum(1 for card in self.cards if card.is_joker)

    @property
    def rank(self) -> str:
        """The rank of a book (for a run, the rank of its lowest card)."""
        card = self.cards[0]
        return card.declared.rank if card.is_joker else card.rank

    @property
    def suit(self) -> str | None:
        """The suit of a run; None for a book."""
        if self.kind != "run":
            return None
        card = self.cards[0]
        return card.declared.suit if card.is_joker else card.suit

    @property
    def span(self) -> tuple[int, int]:
        """A run's lowest and highest positions, 1 (low ace) to 14 (high ace)."""
        first = self.cards[0]
        rank = first.declared.rank if first.is_joker else first.rank
        low = 1 if rank == "A" and len(self.cards) > 1 else RANK_VALUE[rank]
        return low, low + len(self.cards) - 1

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able form."""
        return {"kind": self.kind, "cards": [str(card) for card in self.cards]}


@dataclass
class Verdict:
    """The answer to a rules question: ok, the reasons when not, and the melds found."""

    ok: bool
    reasons: list[Message] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    leftover: list[Card] = field(default_factory=list)
    points_shed: int = 0
    # The search ran out of steps (going_down/budget.py): when not ok, neither yes nor no is
    # known; when ok, the going-down found is legal but may not be the best.
    gave_up: bool = False

    def __bool__(self) -> bool:
        return self.ok

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able form."""
        return {
            "ok": self.ok,
            "reasons": list(self.reasons),
            "melds": [meld.to_dict() for meld in self.melds],
            "leftover": [str(card) for card in self.leftover],
            "points_shed": self.points_shed,
            "gave_up": self.gave_up,
        }


def refuse(*reasons: Message) -> Verdict:
    """A refusing verdict with the given reasons."""
    return Verdict(False, list(reasons))


def ace_frames(rules: HouseRules) -> tuple[tuple[int, int, bool], ...]:
    """Run position ranges (low, high, must start at the low ace) allowed by the ace setting."""
    if rules.ace == "high":
        return ((2, 14, False),)
    if rules.ace == "low":
        return ((1, 13, False),)
    return ((2, 14, False), (1, 13, True))


def slot_rank(position: int) -> str:
    """The rank at a run position (1 and 14 are both the ace)."""
    return VALUE_RANK[position]


def describe(cards: Iterable[Card]) -> str:
    """Cards named for a reason, in canonical notation."""
    return format_cards(cards)


def input_problems(cards: Sequence[Card], rules: HouseRules) -> list[Message]:
    """Reasons why these cards cannot be checked at all: not cards, rank only, too many."""
    problems = []
    for card in cards:
        if not isinstance(card, Card):
            return [_("{card} is not a card.", card=repr(card))]
    for card in cards:
        if not card.is_joker and card.suit is None:
            problems.append(
                _("{card} has no suit: melds need whole cards, like {card}H.", card=str(card))
            )
            break
        if card.is_joker and card.declared is not None and card.declared.suit is None:
            continue
    problems.extend(card_problems(cards, rules.decks, rules.jokers))
    return problems


def input_refusal(cards: Sequence[Card], rules: HouseRules) -> Verdict | None:
    """A refusing verdict naming why these cards cannot be checked at all, or None."""
    problems = input_problems(cards, rules)
    return refuse(*problems) if problems else None


def listed_cards(cards: Iterable[Card], rules: HouseRules) -> list[Card] | Verdict:
    """The cards as a list, or a refusing verdict naming why they cannot be checked at all."""
    try:
        cards = list(cards)
    except TypeError:
        return refuse(_("Expected a list of cards."))
    refusal = input_refusal(cards, rules)  # a refusing Verdict is falsy: no `or` here
    return cards if refusal is None else refusal


def joker_for(rank: str, suit: str | None) -> Card:
    """A joker standing for the card of this rank (and suit, when given)."""
    return Card(JOKER, None, Card(rank, suit))


def book_options(cards: Sequence[Card], rules: HouseRules) -> list[Meld]:
    """The book these cards make, as a one-item list, or an empty list."""
    naturals = [card for card in cards if not card.is_joker]
    jokers = [card for card in cards if card.is_joker]
    if not naturals or len(cards) < rules.min_book:
        return []
    rank = naturals[0].rank
    if any(card.rank != rank for card in naturals):
        return []
    if any(joker.declared is not None and joker.declared.rank != rank for joker in jokers):
        return []
    if rules.book_suits_distinct:
        suits = [card.suit for card in naturals]
        suits += [joker.declared.suit for joker in jokers if joker.declared and joker.declared.suit]
        if len(set(suits)) != len(suits) or len(cards) > len(SUITS):
            return []
    # A joker not declared stands for the rank; where suits must differ, for whichever missing
    # suit keeps the book legal: named when only one is left, else decided when a card needs it.
    undeclared = sum(1 for joker in jokers if joker.declared is None)
    missing = [suit for suit in SUITS if suit not in suits] if rules.book_suits_distinct else []
    forced = iter(missing if len(missing) == undeclared else [None] * undeclared)
    placed = [
        joker if joker.declared is not None else joker_for(rank, next(forced)) for joker in jokers
    ]
    ordered = sorted(naturals, key=card_sort_key) + placed
    return [Meld("book", tuple(ordered))]


def run_options(cards: Sequence[Card], rules: HouseRules) -> list[Meld]:
    """Every way these cards make a run (joker placements and ace readings), best first.

    An undeclared joker not needed inside the run goes to the high end first.
    """
    if len(cards) < rules.min_run or len(cards) > 13:
        return []
    fixed: list[tuple[str, Card]] = []
    free = 0
    suit = None
    by_rank: list[str] = []  # jokers declared by rank alone take the run's suit
    for card in cards:
        if card.is_joker and card.declared is None:
            free += 1
            continue
        target = card.declared if card.is_joker else card
        if target.suit is None and card.is_joker:
            by_rank.append(target.rank)
            continue
        if target.suit is None or (suit is not None and target.suit != suit):
            return []
        suit = target.suit
        fixed.append((target.rank, card))
    if suit is None:
        return []
    fixed += [(rank, joker_for(rank, suit)) for rank in by_rank]
    size = len(cards)
    options = []
    for low, high, from_low in ace_frames(rules):
        ace = low if low == 1 else 14
        placed = {}
        for rank, card in fixed:
            position = ace if rank == "A" else RANK_VALUE[rank]
            if position in placed:
                break
            placed[position] = card
        else:
            smallest, largest = min(placed), max(placed)
            first = max(low, largest - size + 1)
            last = min(smallest, high - size + 1)
            if from_low:
                first = last = low if first <= low <= last else 0
            for start in range(last, first - 1, -1) if first else ():
                row = [
                    placed.get(position) or joker_for(slot_rank(position), suit)
                    for position in range(start, start + size)
                ]
                options.append(Meld("run", tuple(row)))
    return options


def meld_options(cards: Sequence[Card], rules: HouseRules) -> list[Meld]:
    """Every legal reading of these cards as one meld; empty when none is legal."""
    jokers = sum(1 for card in cards if card.is_joker)
    if jokers > rules.jokers_per_meld or jokers * 2 > len(cards):
        return []
    if any(not card.is_joker and card.suit is None for card in cards):
        return []
    return book_options(cards, rules) + run_options(cards, rules)


def _plural(rank: str) -> Message:
    return RANK_PLURAL[rank]


def _run_gap_reason(cards: Sequence[Card], rules: HouseRules) -> Message | None:
    """Explain why one-suit cards with distinct ranks are not a run, or None."""
    naturals = [card for card in cards if not card.is_joker]
    suit = naturals[0].suit
    jokers = len(cards) - len(naturals)
    ranks = {card.rank for card in naturals}
    name = describe(cards)
    if "A" in ranks and rules.ace != "high_or_low":
        other = HouseRules(ace="high_or_low", min_run=rules.min_run, min_book=rules.min_book)
        if run_options(cards, other) and not run_options(cards, rules):
            if rules.ace == "high":
                return _("{cards} is not a run: aces are high only.", cards=name)
            return _("{cards} is not a run: aces are low only.", cards=name)
    if "A" in ranks and "K" in ranks and "2" in ranks:
        return _("{cards} is not a run: runs do not wrap around from the ace.", cards=name)
    best_missing = None
    for low, _high, _from_low in ace_frames(rules):
        ace = low if low == 1 else 14
        positions = sorted(ace if card.rank == "A" else card.value for card in naturals)
        missing = [
            position
            for position in range(positions[0], positions[-1] + 1)
            if position not in positions
        ]
        if best_missing is None or len(missing) < len(best_missing):
            best_missing = missing
    if best_missing and len(best_missing) > jokers:
        gaps = and_joined(f"{slot_rank(position)}{suit}" for position in best_missing)
        if jokers:
            return ngettext_lazy(
                "{cards} is not a run: it is missing {gaps}, with only {count} joker to fill the "
                "gap.",
                "{cards} is not a run: it is missing {gaps}, with only {count} jokers to fill the "
                "gap.",
                jokers,
                cards=name,
                gaps=gaps,
                count=jokers,
            )
        return _(
            "{cards} is not a run: it is missing {gaps}, with no joker to fill the gap.",
            cards=name,
            gaps=gaps,
        )
    return _("{cards} is not a run: a joker cannot stand for a card beyond the ace.", cards=name)


def joker_limit(jokers_per_meld: int) -> Message:
    """ "one joker", "2 jokers": the most a meld may hold."""
    return ngettext_lazy("one joker", "{count} jokers", jokers_per_meld, count=jokers_per_meld)


def explain(cards: Sequence[Card], rules: HouseRules) -> Message:
    """One plain sentence saying why these cards are not a legal meld."""
    name = describe(cards)
    naturals = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(naturals)
    if not cards:
        return _("No cards were given: a meld needs cards.")
    if jokers > rules.jokers_per_meld:
        if rules.jokers_per_meld == 0:
            return _("{cards} holds a joker: these rules do not allow jokers in melds.", cards=name)
        return _(
            "{cards} holds {count} jokers: a meld may hold at most {limit}.",
            cards=name,
            count=jokers,
            limit=joker_limit(rules.jokers_per_meld),
        )
    if jokers > len(naturals):
        return _(
            "{cards} has more jokers than natural cards: a meld needs at least as many.",
            cards=name,
        )
    ranks = {card.rank for card in naturals}
    suits = {card.suit for card in naturals}
    targets = [card.declared for card in cards if card.is_joker and card.declared is not None]
    if len(ranks) == 1:
        rank = next(iter(ranks))
        wrong = [t for t in targets if t.rank != rank]
        if wrong:
            return _(
                "{cards} is not a book: JK={card} cannot stand in a book of {ranks}.",
                cards=name,
                card=str(wrong[0]),
                ranks=_plural(rank),
            )
        if len(cards) < rules.min_book:
            return _(
                "{cards} is not a book: a book needs at least {count} cards.",
                cards=name,
                count=rules.min_book,
            )
        if rules.book_suits_distinct:
            return _(
                "{cards} is not a book: in these rules a book's cards must all differ in suit.",
                cards=name,
            )
        return _("{cards} is not a book.", cards=name)
    if len(suits) == 1:
        suit = next(iter(suits))
        wrong = [t for t in targets if t.suit != suit]
        if wrong:
            return _(
                "{cards} is not a run: JK={card} cannot stand in a run of {suit}.",
                cards=name,
                card=str(wrong[0]),
                suit=SUIT_NAME[suit],
            )
        seen: set[str] = set()
        for card in naturals + [t for t in targets if t is not None]:
            if card.rank in seen:
                return _(
                    "{cards} is not a run: a run holds each rank only once ({rank} twice).",
                    cards=name,
                    rank=card.rank,
                )
            seen.add(card.rank)
        if len(cards) < rules.min_run:
            return _(
                "{cards} is not a run: a run needs at least {count} cards.",
                cards=name,
                count=rules.min_run,
            )
        if len(cards) > 13:
            return _("{cards} is not a run: a run holds at most 13 cards.", cards=name)
        return _run_gap_reason(cards, rules) or _("{cards} is not a run.", cards=name)
    return _(
        "{cards} is neither a book nor a run: a book is cards of one rank, "
        "a run is cards of one suit in sequence.",
        cards=name,
    )


def check_meld(cards: Sequence[Card], rules: HouseRules = DEFAULT_RULES) -> Verdict:
    """Is this set of cards (in any order) one legal meld? The verdict names the joker's card."""
    cards = listed_cards(cards, rules)
    if isinstance(cards, Verdict):
        return cards
    options = meld_options(cards, rules)
    if options:
        return Verdict(True, melds=[options[0]])
    return refuse(explain(cards, rules))
