"""Going down: checking an initial meld, and finding the best one in a hand.

The search works on counts of cards rather than on cards, so the two copies of a card in two
decks are never tried twice. Every meld is built around its smallest natural card (the
"anchor"): the search visits the distinct natural cards in order and, at each, either opens
melds anchored there or leaves the remaining copies over. A run anchored at its smallest
natural can only hold jokers below it, so few windows are possible, and the joker limit cuts
the rest. Jokers declared by the player stay at their declared card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product

from .cards import JOKER, RANK_PLURAL, RANK_VALUE, SUIT_NAME, SUITS, VALUE_RANK, Card
from .contracts import Contract, RulesError
from .house_rules import HouseRules
from .melds import (
    DEFAULT_RULES,
    Meld,
    Verdict,
    ace_frames,
    book_options,
    check_meld,
    describe,
    input_problems,
    meld_options,
    refuse,
)

FREE = "f"  # resource key of an undeclared joker


@dataclass(slots=True)
class _Plan:
    """A meld chosen by the search, before its cards are built."""

    kind: str
    uses: tuple[tuple[object, int], ...]  # resource key -> count
    points: int
    value: int  # book rank value, or run start position
    suit: int  # run suit index; -1 for a book
    end: int  # run end position
    slots: tuple[object, ...] = ()  # run: source of each position; book: jokers' keys
    meld: Meld | None = None  # set when the meld was checked whole (last meld of a cover)


def _rank_of(position: int) -> int:
    return 14 if position == 1 else position


class _Search:
    def __init__(self, hand: list[Card], contract: Contract, rules: HouseRules, cover: bool):
        self.rules = rules
        self.cover = cover
        self.books_needed = contract.books
        self.runs_needed = contract.runs
        # A no-discard contract is always exactly its melds.
        self.extra = rules.extra_melds_allowed and not contract.no_discard
        self.keep_one = (
            not cover and rules.must_discard_to_go_out and not contract.no_discard
        )  # a card must stay in hand to discard
        points = dict(rules.points)
        self.joker_points = points[JOKER]
        self.count: dict[object, int] = {}
        self.key_points: dict[object, int] = {}
        for card in hand:
            if card.is_joker and card.declared is None:
                key: object = FREE
            elif card.is_joker:
                target = card.declared
                suit = SUITS.index(target.suit) if target.suit else -1
                key = ("d", RANK_VALUE[target.rank], suit)
            else:
                key = (RANK_VALUE[card.rank], SUITS.index(card.suit))
            self.count[key] = self.count.get(key, 0) + 1
            self.key_points[key] = self.joker_points if card.is_joker else points[card.rank]
        self.keys = sorted(key for key in self.count if isinstance(key, tuple) and key[0] != "d")
        self.remaining_cards = len(hand)
        self.available_points = sum(self.key_points[k] * n for k, n in self.count.items())
        self.frames = ace_frames(rules)
        self.chosen: list[_Plan] = []
        self.books_used = 0
        self.runs_used = 0
        self.shed = 0
        self.enforce = True
        self.best: list[_Plan] | None = None
        self.best_points = -1
        self.done = False
        self.failed: set[tuple] = set()

    # --- the search -------------------------------------------------------------------------

    def run(self, enforce: bool = True) -> list[_Plan] | None:
        self.enforce = enforce
        self.best, self.best_points, self.done = None, -1, False
        self.failed = set()
        self._visit(0)
        return self.best

    def _melds_full(self) -> bool:
        return not self.extra and self.books_used + self.runs_used == (
            self.books_needed + self.runs_needed
        )

    def _state(self, index: int) -> tuple:
        return (
            index,
            tuple(self.count.values()),
            self.books_used,
            self.runs_used,
            tuple(sorted((p.kind, p.value, p.suit, p.end) for p in self.chosen)),
        )

    def _visit(self, index: int) -> None:
        keys, count = self.keys, self.count
        while index < len(keys) and count[keys[index]] == 0:
            index += 1
        if not self.cover and self.shed + self.available_points <= self.best_points:
            return
        if self.cover:
            books_left = max(0, self.books_needed - self.books_used)
            runs_left = max(0, self.runs_needed - self.runs_used)
            needed = books_left * self.rules.min_book + runs_left * self.rules.min_run
            if self.remaining_cards < needed:
                return
            if self._melds_full() and self.remaining_cards:
                return
            if not self.extra and books_left + runs_left == 1 and self.remaining_cards:
                self._last_meld(books_left == 1)
                return
        if index == len(keys):
            self._finish()
            return
        state = self._state(index) if self.cover else None
        if state is not None and state in self.failed:
            return
        key = keys[index]
        self._choose(index, key, self._candidates(key), 0)
        if state is not None and not self.done:
            self.failed.add(state)

    def _choose(self, index: int, key: tuple, candidates: list[_Plan], start: int) -> None:
        count = self.count
        for position in range(start, len(candidates)):
            plan = candidates[position]
            if not self._fits(plan) or not self._allowed(plan):
                continue
            self._apply(plan, 1)
            if count[key] > 0:
                self._choose(index, key, candidates, position)
            else:
                self._visit(index + 1)
            self._apply(plan, -1)
            if self.done:
                return
        if not self.cover:
            left = count[key]
            count[key] = 0
            self.available_points -= left * self.key_points[key]
            self._visit(index + 1)
            count[key] = left
            self.available_points += left * self.key_points[key]

    def _fits(self, plan: _Plan) -> bool:
        count = self.count
        if plan.kind == "book":
            if not self.extra and self.books_used >= self.books_needed:
                return False
        elif not self.extra and self.runs_used >= self.runs_needed:
            return False
        return all(count.get(key, 0) >= n for key, n in plan.uses)

    def _allowed(self, plan: _Plan) -> bool:
        if not self.enforce:
            return True
        return _conflict(plan, self.chosen, self.rules) is None

    def _apply(self, plan: _Plan, sign: int) -> None:
        count = self.count
        cards = 0
        for key, n in plan.uses:
            count[key] -= sign * n
            cards += n
        self.remaining_cards -= sign * cards
        self.available_points -= sign * plan.points
        self.shed += sign * plan.points
        if plan.kind == "book":
            self.books_used += sign
        else:
            self.runs_used += sign
        if sign > 0:
            self.chosen.append(plan)
        else:
            self.chosen.pop()

    def _finish(self) -> None:
        if self.cover and self.remaining_cards:
            return
        if self.extra:
            if self.books_used < self.books_needed or self.runs_used < self.runs_needed:
                return
        elif self.books_used != self.books_needed or self.runs_used != self.runs_needed:
            return
        if self.keep_one and self.remaining_cards == 0:
            return
        if self.shed > self.best_points:
            self.best_points = self.shed
            self.best = list(self.chosen)
            if self.cover:
                self.done = True

    def _last_meld(self, book: bool) -> None:
        """In a cover, the cards still unused must make the one missing meld exactly."""
        cards = self.leftover_cards()
        for meld in meld_options(cards, self.rules):
            if (meld.kind == "book") != book:
                continue
            plan = _plan_of(meld, self.count, self.key_points)
            if self.enforce and _conflict(plan, self.chosen, self.rules) is not None:
                continue
            self.chosen.append(plan)
            self.best = list(self.chosen)
            self.best_points = sum(p.points for p in self.chosen)
            self.chosen.pop()
            self.done = True
            return

    # --- candidate melds anchored at one natural card ------------------------------------------

    def _candidates(self, key: tuple) -> list[_Plan]:
        plans: list[_Plan] = []
        if self.extra or self.runs_used < self.runs_needed:
            plans.extend(self._runs(key))
        if self.extra or self.books_used < self.books_needed:
            plans.extend(self._books(key))
        # Bigger melds first: finds high-scoring answers early so the bound prunes more.
        plans.sort(key=lambda plan: -plan.points)
        return plans

    def _joker_keys(self, value: int, suits: Sequence[int]) -> list[object]:
        keys: list[object] = [
            ("d", value, suit) for suit in suits if self.count.get(("d", value, suit))
        ]
        if self.count.get(FREE):
            keys.append(FREE)
        return keys

    def _books(self, key: tuple) -> list[_Plan]:
        rules = self.rules
        value, anchor_suit = key
        cap = 1 if rules.book_suits_distinct else None
        ranges = []
        for suit in range(4):
            held = self.count.get((value, suit), 0) if suit >= anchor_suit else 0
            if cap is not None:
                held = min(held, cap)
            ranges.append(range(1, held + 1) if suit == anchor_suit else range(held + 1))
        joker_keys = self._joker_keys(value, (-1, 0, 1, 2, 3))
        joker_sets: list[tuple[object, ...]] = [()]
        for size in range(1, rules.jokers_per_meld + 1):
            for combo in _multisets(joker_keys, size):
                if all(self.count.get(k, 0) >= combo.count(k) for k in set(combo)):
                    joker_sets.append(combo)
        point = self.key_points[key]
        plans = []
        for counts in product(*ranges):
            naturals = sum(counts)
            natural_suits = {suit for suit, n in enumerate(counts) if n}
            for jokers in joker_sets:
                total = naturals + len(jokers)
                if total < rules.min_book or len(jokers) > naturals:
                    continue
                if rules.book_suits_distinct:
                    # A joker declared by rank alone takes a missing suit, as an undeclared one.
                    declared = [k[2] for k in jokers if k != FREE and k[2] >= 0]
                    if total > 4:
                        continue
                    if len(set(declared)) != len(declared) or natural_suits & set(declared):
                        continue
                uses: dict[object, int] = {}
                for suit, n in enumerate(counts):
                    if n:
                        uses[(value, suit)] = n
                for k in jokers:
                    uses[k] = uses.get(k, 0) + 1
                plans.append(
                    _Plan(
                        "book",
                        tuple(uses.items()),
                        naturals * point + len(jokers) * self.joker_points,
                        value,
                        -1,
                        value,
                        tuple(jokers),
                    )
                )
        return plans

    def _runs(self, key: tuple) -> list[_Plan]:
        rules = self.rules
        value, suit = key
        count = self.count
        limit = rules.jokers_per_meld
        plans = []
        for low, high, from_low in self.frames:
            anchor = 1 if value == 14 and low == 1 else value
            if not low <= anchor <= high:
                continue

            def natural(position: int, anchor: int = anchor) -> bool:
                if position == anchor:
                    return True
                rank = _rank_of(position)
                return rank > value and count.get((rank, suit), 0) > 0

            missing_below = 0
            for start in range(anchor, max(low, anchor - 12) - 1, -1):
                if start < anchor and not natural(start):
                    missing_below += 1
                if missing_below > limit:
                    break
                if from_low and start != low:
                    continue
                missing = missing_below
                for end in range(anchor, min(high, start + 12) + 1):
                    if end > anchor and not natural(end):
                        missing += 1
                    if missing > limit:
                        break
                    if end - start + 1 >= rules.min_run:
                        plans.extend(self._run_plans(start, end, anchor, suit, natural))
        return plans

    def _run_plans(self, start, end, anchor, suit, natural) -> list[_Plan]:
        rules = self.rules
        positions = range(start, end + 1)
        size = len(positions)
        must = [p for p in positions if not natural(p)]
        optional = [p for p in positions if p != anchor and natural(p)]
        room = rules.jokers_per_meld - len(must)
        plans = []
        for extra in range(0, room + 1):
            for swapped in combinations(optional, extra):
                joker_positions = must + list(swapped)
                jokers = len(joker_positions)
                if jokers * 2 > size:
                    continue
                choices = []
                for p in joker_positions:
                    options: list[object] = []
                    # A joker declared with this card, or with its rank alone.
                    for declared in (suit, -1):
                        if self.count.get(("d", _rank_of(p), declared)):
                            options.append(("d", _rank_of(p), declared))
                    if self.count.get(FREE):
                        options.append(FREE)
                    choices.append(options)
                for sources in product(*choices):
                    uses: dict[object, int] = {}
                    slots: list[object] = []
                    filled = dict(zip(joker_positions, sources, strict=True))
                    points = 0
                    for p in positions:
                        source = filled.get(p) or (_rank_of(p), suit)
                        slots.append(source)
                        uses[source] = uses.get(source, 0) + 1
                        points += self.key_points[source]
                    if any(self.count.get(k, 0) < n for k, n in uses.items()):
                        continue
                    plans.append(
                        _Plan("run", tuple(uses.items()), points, start, suit, end, tuple(slots))
                    )
        return plans

    # --- results ------------------------------------------------------------------------------

    def leftover_cards(self) -> list[Card]:
        cards = []
        for key, n in self.count.items():
            cards.extend([_card_of(key)] * n)
        return cards


def _multisets(keys: list[object], size: int) -> list[tuple[object, ...]]:
    return list(combinations_with_replacement(keys, size))


def _card_of(key: object) -> Card:
    if key == FREE:
        return Card(JOKER, None)
    if key[0] == "d":
        _, value, suit = key
        return Card(JOKER, None, Card(VALUE_RANK[value], SUITS[suit] if suit >= 0 else None))
    value, suit = key
    return Card(VALUE_RANK[value], SUITS[suit])


def _key_of(card: Card) -> object:
    if card.is_joker and card.declared is None:
        return FREE
    if card.is_joker:
        target = card.declared
        return ("d", RANK_VALUE[target.rank], SUITS.index(target.suit) if target.suit else -1)
    return (RANK_VALUE[card.rank], SUITS.index(card.suit))


def _plan_of(meld: Meld, count: dict[object, int], key_points: dict[object, int]) -> _Plan:
    """The plan of the last meld of a cover, which takes every card still counted."""
    uses = tuple((key, n) for key, n in count.items() if n)
    points = sum(key_points[key] * n for key, n in uses)
    if meld.kind == "book":
        value = RANK_VALUE[meld.rank]
        return _Plan("book", uses, points, value, -1, value, meld=meld)
    low, high = meld.span
    return _Plan("run", uses, points, low, SUITS.index(meld.suit), high, meld=meld)


def _conflict(plan: _Plan, chosen: list[_Plan], rules: HouseRules) -> str | None:
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


def _build(plan: _Plan, rules: HouseRules) -> Meld:
    if plan.meld is not None:
        return plan.meld
    if plan.kind == "run":
        suit = SUITS[plan.suit]
        cards = []
        for position, source in zip(range(plan.value, plan.end + 1), plan.slots, strict=True):
            rank = VALUE_RANK[position]
            if source == FREE or source[0] == "d":
                cards.append(Card(JOKER, None, Card(rank, suit)))
            else:
                cards.append(Card(rank, suit))
        return Meld("run", tuple(cards))
    rank = VALUE_RANK[plan.value]
    naturals = []
    jokers = []
    for key, n in plan.uses:
        if key == FREE or key[0] == "d":
            continue
        naturals.extend([Card(rank, SUITS[key[1]])] * n)
    jokers = [_card_of(key) for key in plan.slots]
    # The jokers stand for the rank, or the suits left, exactly as a book checked alone.
    return book_options(naturals + jokers, rules)[0]


def _conflict_reason(melds: list[Meld], rules: HouseRules) -> str | None:
    """A sentence for the first initial-meld rule these melds break together, or None."""
    for i, first in enumerate(melds):
        for second in melds[i + 1 :]:
            if first.kind != second.kind:
                continue
            pair = f"{first} and {second}"
            if first.kind == "book":
                if rules.same_rank_books_banned and first.rank == second.rank:
                    return (
                        f"{pair} are two books of {RANK_PLURAL[first.rank]}: an initial meld "
                        "may hold only one book of each rank."
                    )
                continue
            if first.suit != second.suit:
                continue
            (a, b), (c, d) = first.span, second.span
            suit = SUIT_NAME[first.suit]
            if rules.same_suit_runs_must_be_separated:
                if not (b + 1 < c or d + 1 < a):
                    return (
                        f"{pair} are runs of {suit} with no gap between them: these rules "
                        "need a gap between two runs of one suit in an initial meld."
                    )
            elif b + 1 == c or d + 1 == a:
                return (
                    f"{pair} are consecutive runs of {suit}: they cannot go down together "
                    "(there must be a gap)."
                )
    return None


def _contract_of(contract: int, rules: HouseRules) -> Contract:
    return rules.contract(contract)


def _needs(contract: Contract) -> str:
    parts = []
    for count, word in ((contract.books, "book"), (contract.runs, "run")):
        if count:
            parts.append(f"{count} {word}{'s' if count != 1 else ''}")
    return " and ".join(parts)


def _leftover(hand: list[Card], melds: list[Meld]) -> list[Card]:
    rest = list(hand)
    for meld in melds:
        for card in meld.cards:
            if card.is_joker:
                plain = Card(JOKER, None)
                match = next((c for c in rest if c == card), None)
                if match is None:
                    match = next((c for c in rest if c == plain), None)
                if match is None:
                    match = next(c for c in rest if c.is_joker)
                rest.remove(match)
            else:
                rest.remove(card)
    return rest


def _solve(hand: list[Card], contract: Contract, rules: HouseRules, cover: bool) -> Verdict:
    search = _Search(hand, contract, rules, cover)
    plans = search.run()
    if plans is None:
        return Verdict(False)
    melds = [_build(plan, rules) for plan in plans]
    melds.sort(key=_meld_order)
    points = dict(rules.points)
    shed = sum(points[card.rank] for meld in melds for card in meld.cards)
    return Verdict(True, melds=melds, leftover=_leftover(hand, melds), points_shed=shed)


def _meld_order(meld: Meld) -> tuple:
    if meld.kind == "book":
        return (0, RANK_VALUE[meld.rank], "")
    return (1, meld.span[0], meld.suit or "")


def _flatten(cards_or_melds: Sequence) -> tuple[list[Card], list[list[Card]] | None]:
    items = list(cards_or_melds)
    if items and all(isinstance(item, list | tuple) for item in items):
        groups = [list(item) for item in items]
        return [card for group in groups for card in group], groups
    return items, None


def check_going_down(
    contract: int, cards_or_melds: Sequence, rules: HouseRules = DEFAULT_RULES
) -> Verdict:
    """Is this a legal initial meld for contract number `contract` (counting from 1)?

    A list of lists is checked as grouped melds; a flat list of cards must be arranged, all
    of it, into the contract's melds (for a no-discard contract, the flat list is the whole
    hand). Same-rank books and consecutive same-suit runs are refused only after every joker
    assignment has been tried.
    """
    try:
        wanted = _contract_of(contract, rules)
    except RulesError as error:
        return refuse(str(error))
    try:
        cards, groups = _flatten(cards_or_melds)
    except TypeError:
        return refuse("Expected a list of cards or a list of melds.")
    problems = input_problems(cards, rules)
    if problems:
        return refuse(*problems)
    if not cards:
        return refuse(f"No cards were given: contract {contract} needs {_needs(wanted)}.")
    if groups is not None:
        return _check_grouped(contract, wanted, groups, rules)
    verdict = _solve(cards, wanted, rules, cover=True)
    if verdict.ok:
        return verdict
    return refuse(*_cover_reasons(contract, wanted, cards, rules))


def _check_grouped(
    number: int, contract: Contract, groups: list[list[Card]], rules: HouseRules
) -> Verdict:
    reasons = []
    options = []
    for group in groups:
        readings = meld_options(group, rules)
        if not readings:
            reasons.append(check_meld(group, rules).reasons[0])
        options.append(readings)
    if reasons:
        return refuse(*reasons)
    extra_allowed = rules.extra_melds_allowed and not contract.no_discard
    first_conflict = None
    for choice in product(*options):
        books = sum(1 for meld in choice if meld.kind == "book")
        runs = len(choice) - books
        if extra_allowed:
            if books < contract.books or runs < contract.runs:
                continue
        elif (books, runs) != (contract.books, contract.runs):
            continue
        conflict = _conflict_reason(list(choice), rules)
        if conflict is None:
            melds = list(choice)
            points = dict(rules.points)
            shed = sum(points[card.rank] for meld in melds for card in meld.cards)
            return Verdict(True, melds=melds, points_shed=shed)
        first_conflict = first_conflict or conflict
    if first_conflict:
        return refuse(first_conflict)
    kinds = [reading[0].kind for reading in options]
    laid = _needs(Contract(kinds.count("book"), kinds.count("run")))
    extra = " at least" if extra_allowed else ""
    return refuse(
        f"Contract {number} ({contract.name}) needs{extra} {_needs(contract)}; "
        f"these melds are {laid}."
    )


def _cover_reasons(number: int, contract: Contract, cards: list[Card], rules: HouseRules) -> list:
    name = f"Contract {number} ({contract.name})"
    needed = contract.books * rules.min_book + contract.runs * rules.min_run
    if len(cards) < needed:
        return [f"{name} needs at least {needed} cards; {len(cards)} were given."]
    relaxed = _Search(cards, contract, rules, cover=True).run(enforce=False)
    if relaxed is not None:
        melds = [_build(plan, rules) for plan in relaxed]
        reason = _conflict_reason(melds, rules)
        if reason:
            return [reason]
    reasons = [f"{describe(cards)} cannot be laid out as {_needs(contract)} using every card."]
    best = _solve(cards, contract, rules, cover=False)
    if best.ok and best.leftover:
        layout = " | ".join(str(meld) for meld in best.melds)
        reasons.append(f"{describe(best.leftover)} does not fit: the closest is {layout}.")
    return reasons


def find_going_down(
    contract: int, hand: Sequence[Card], rules: HouseRules = DEFAULT_RULES
) -> Verdict:
    """The legal going-down in this hand that sheds the most penalty points.

    The verdict's melds are the ones to lay, `leftover` the cards kept and `points_shed` the
    points laid down. For a no-discard contract the whole hand must be used. When no going
    down exists, the reasons say what is missing.
    """
    try:
        wanted = _contract_of(contract, rules)
    except RulesError as error:
        return refuse(str(error))
    try:
        hand = list(hand)
    except TypeError:
        return refuse("Expected a list of cards.")
    problems = input_problems(hand, rules)
    if problems:
        return refuse(*problems)
    verdict = _solve(hand, wanted, rules, cover=wanted.no_discard)
    if verdict.ok:
        return verdict
    return refuse(*_missing_reasons(contract, wanted, hand, rules))


def _missing_reasons(number: int, contract: Contract, hand: list[Card], rules: HouseRules) -> list:
    name = f"Contract {number} ({contract.name})"
    if contract.no_discard:
        reasons = [f"{name} must use the whole hand, and this hand cannot make {_needs(contract)}."]
    else:
        reasons = [f"This hand cannot go down for {name}: it needs {_needs(contract)}."]
    relaxed = _Search(hand, contract, rules, cover=contract.no_discard).run(enforce=False)
    if relaxed is not None:
        reason = _conflict_reason([_build(plan, rules) for plan in relaxed], rules)
        if reason:
            reasons.append(reason)
            return reasons
    books = _most(hand, rules, "book", contract.books)
    runs = _most(hand, rules, "run", contract.runs)
    if books < contract.books or runs < contract.runs:
        held = _needs(Contract(books, runs)) if books or runs else "no book or run"
        reasons.append(f"It holds at most {held}.".replace("at most no", "no"))
    elif not contract.no_discard:
        reasons.append("Its books and runs need the same cards.")
    if rules.must_discard_to_go_out and not contract.no_discard:
        reasons.append("A card must be kept back to discard.")
    return reasons


def _most(hand: list[Card], rules: HouseRules, kind: str, wanted: int) -> int:
    best = 0
    for count in range(1, wanted + 1):
        contract = Contract(count, 0) if kind == "book" else Contract(0, count)
        search = _Search(hand, contract, rules, cover=False)
        search.keep_one = False
        search.extra = False
        if search.run(enforce=True) is None:
            break
        best = count
    return best
