"""Candidate melds anchored at one natural card, from the cards the search still counts.

Every meld is built around its smallest natural card (the anchor): a book takes the anchor,
copies of its rank in the anchor's suit and the suits after it, and jokers; a run anchored at
its smallest natural can only hold jokers below it, so few windows are possible, and the joker
limit cuts the rest. Jokers declared by the player stay at their declared card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, combinations_with_replacement, product
from math import prod
from typing import TYPE_CHECKING

from .budget import BOOK_STEPS
from .plans import FREE, Plan, rank_of

if TYPE_CHECKING:
    from .search import Search


def candidates(search: Search, key: tuple) -> list[Plan]:
    """The melds anchored at the natural card `key` that the cards still counted allow,
    biggest first: high-scoring answers found early let the bound prune more."""
    runs_open = search.extra or search.runs_used < search.runs_needed
    books_open = search.extra or search.books_used < search.books_needed
    # The same cards left give the same melds, whatever path led here; only the anchor's suit
    # (for runs), its rank (for books) and the jokers count.
    count = search.count
    memo_key = (key, runs_open, books_open, *(count[k] for k in search.near[key]))
    plans = search.candidate_memo.get(memo_key)
    if plans is None:
        plans = []
        if runs_open:
            plans.extend(_runs(search, key))
        if books_open:
            plans.extend(_books(search, key))
        plans.sort(key=lambda plan: -plan.points)
        search.candidate_memo[memo_key] = plans
    return plans


def _joker_keys(search: Search, value: int, suits: Sequence[int]) -> list[object]:
    keys: list[object] = [
        ("d", value, suit) for suit in suits if search.count.get(("d", value, suit))
    ]
    if search.count.get(FREE):
        keys.append(FREE)
    return keys


def _books(search: Search, key: tuple) -> list[Plan]:
    rules = search.rules
    count = search.count
    value, anchor_suit = key
    cap = 1 if rules.book_suits_distinct else None
    ranges = []
    for suit in range(4):
        held = count.get((value, suit), 0) if suit >= anchor_suit else 0
        if cap is not None:
            held = min(held, cap)
        ranges.append(range(1, held + 1) if suit == anchor_suit else range(held + 1))
    joker_keys = _joker_keys(search, value, (-1, 0, 1, 2, 3))
    joker_sets: list[tuple[object, ...]] = [()]
    for size in range(1, rules.jokers_per_meld + 1):
        for combo in combinations_with_replacement(joker_keys, size):
            if all(count.get(k, 0) >= combo.count(k) for k in set(combo)):
                joker_sets.append(combo)
    point = search.key_points[key]
    search.budget.spend(BOOK_STEPS * prod(len(r) for r in ranges) * len(joker_sets))
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
            points = naturals * point + len(jokers) * search.joker_points
            plans.append(Plan("book", tuple(uses.items()), points, value, -1, value, tuple(jokers)))
    return plans


def _runs(search: Search, key: tuple) -> list[Plan]:
    rules = search.rules
    value, suit = key
    count = search.count
    limit = rules.jokers_per_meld
    plans = []
    for low, high, from_low in search.frames:
        anchor = 1 if value == 14 and low == 1 else value
        if not low <= anchor <= high:
            continue

        def natural(position: int, anchor: int = anchor) -> bool:
            if position == anchor:
                return True
            rank = rank_of(position)
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
                    plans.extend(_run_plans(search, start, end, anchor, suit, natural))
    return plans


def _run_plans(
    search: Search, start: int, end: int, anchor: int, suit: int, natural: Callable[[int], bool]
) -> list[Plan]:
    """The runs of positions start..end: jokers where cards are missing, and in place of
    cards held, up to the joker limit, from every joker that may stand there."""
    rules = search.rules
    count = search.count
    positions = range(start, end + 1)
    size = len(positions)
    must = [p for p in positions if not natural(p)]
    optional = [p for p in positions if p != anchor and natural(p)]
    # No more jokers than the meld may hold, nor than are left (part of the memo's key).
    room = min(rules.jokers_per_meld, search.jokers_left) - len(must)
    plans = []
    for extra in range(0, room + 1):
        for swapped in combinations(optional, extra):
            search.budget.spend()
            joker_positions = must + list(swapped)
            jokers = len(joker_positions)
            if jokers * 2 > size:
                continue
            choices = []
            for p in joker_positions:
                options: list[object] = []
                # A joker declared with this card, or with its rank alone.
                for declared in (suit, -1):
                    if count.get(("d", rank_of(p), declared)):
                        options.append(("d", rank_of(p), declared))
                if count.get(FREE):
                    options.append(FREE)
                choices.append(options)
            for sources in product(*choices):
                search.budget.spend(size)  # a step per card of the run built
                uses: dict[object, int] = {}
                slots: list[object] = []
                filled = dict(zip(joker_positions, sources, strict=True))
                points = 0
                for p in positions:
                    source = filled.get(p) or (rank_of(p), suit)
                    slots.append(source)
                    uses[source] = uses.get(source, 0) + 1
                    points += search.key_points[source]
                if any(count.get(k, 0) < n for k, n in uses.items()):
                    continue
                plans.append(
                    Plan("run", tuple(uses.items()), points, start, suit, end, tuple(slots))
                )
    return plans
