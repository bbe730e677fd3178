"""Counting bounds that let the search give up on a state early.

Each bound ignores what is hard (conflicts between melds, cards wanted by two melds), so it
can only overestimate what the cards left can do: a state it gives up on holds no answer, or
none better than the best found, and the search finds exactly what it found without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .search import Search


@dataclass(frozen=True, slots=True)
class Prospects:
    """At most what the natural cards left can still make."""

    books: int
    runs: int
    points: int  # of the naturals that could go into some book or run still allowed


def usable_jokers(search: Search) -> int:
    """Jokers the melds still to come can hold: every meld holds at least as many naturals as
    jokers and at most jokers_per_meld of them, and without extra melds there are few left."""
    usable = min(search.jokers_left, search.naturals_left)
    if not search.extra:
        melds_left = search.books_needed + search.runs_needed - search.books_used - search.runs_used
        usable = min(usable, melds_left * search.rules.jokers_per_meld)
    return usable


def prospects(search: Search) -> Prospects:
    """How many books and runs, and how many points of naturals, the cards left could give."""
    rules = search.rules
    count = search.count
    # (rank value, suit, copies, run positions as bits, points of one)
    naturals = [
        (key[0], key[1], count[key], search.position_bits[key], search.key_points[key])
        for key in search.keys
        if count[key]
    ]
    # A meld never holds more jokers than these, nor more than its naturals.
    jokers = min(search.jokers_left, rules.jokers_per_meld)
    books_open = search.extra or search.books_used < search.books_needed
    runs_open = search.extra or search.runs_used < search.runs_needed
    book_ranks, books = _book_ranks(search, naturals, jokers) if books_open else (set(), 0)
    run_reach, runs = _run_reach(search, naturals, jokers) if runs_open else ([0] * 4, 0)
    points = 0
    for value, suit, n, bits, one in naturals:
        if value in book_ranks or run_reach[suit] & bits:
            points += n * one
    if not search.extra:
        points = min(points, _most_in_melds_left(search, naturals, book_ranks, run_reach))
    return Prospects(books, runs, points)


def _most_in_melds_left(
    search: Search, naturals: list, book_ranks: set[int], run_reach: list[int]
) -> int:
    """Points of naturals the few melds left can take: a book at most every copy of its rank
    (and two books of one rank no more), so the richest ranks; a run at most one copy of each
    rank of its suit, so the j runs of one suit at most j copies of each."""
    by_rank: dict[int, int] = {}
    layers: dict[tuple[int, int], int] = {}  # (suit, copy) -> points of the copy-th copies
    for value, suit, n, bits, one in naturals:
        if value in book_ranks:
            by_rank[value] = by_rank.get(value, 0) + n * one
        if run_reach[suit] & bits:
            for copy in range(n):
                layers[(suit, copy)] = layers.get((suit, copy), 0) + one
    books_left = search.books_needed - search.books_used
    runs_left = search.runs_needed - search.runs_used
    books = sorted(by_rank.values(), reverse=True)[:books_left]
    runs = sorted(layers.values(), reverse=True)[:runs_left]
    return sum(books) + sum(runs)


def _book_ranks(search: Search, naturals: list, jokers: int) -> tuple[set[int], int]:
    """The ranks that could still make a book, and at most how many books."""
    rules = search.rules
    least = max(rules.min_book - jokers, (rules.min_book + 1) // 2)
    by_rank: dict[int, int] = {}
    suits: dict[int, int] = {}  # per rank, how many suits are held
    for value, _suit, n, _bits, _one in naturals:
        by_rank[value] = by_rank.get(value, 0) + n
        suits[value] = suits.get(value, 0) + 1
    ranks = {value for value, n in by_rank.items() if n >= least}
    if rules.book_suits_distinct:
        ranks = {value for value in ranks if suits[value] >= least}
    one_a_rank = rules.same_rank_books_banned and search.enforce
    if one_a_rank:
        ranks -= {plan.value for plan in search.chosen if plan.kind == "book"}
    # b books of a rank held n times need b * min_book - n jokers at least: the first books
    # may come free, each further one costs min_book jokers more. Jokers are few, so take the
    # cheapest books first.
    costs = []
    for value in ranks:
        n = by_rank[value]
        for b in range(1, 2 if one_a_rank else n // least + 1):
            costs.append(max(0, b * rules.min_book - n) - max(0, (b - 1) * rules.min_book - n))
    books = 0
    jokers_left = search.jokers_left
    for cost in sorted(costs):
        if cost > jokers_left:
            break
        jokers_left -= cost
        books += 1
    return ranks, books


def _run_reach(search: Search, naturals: list, jokers: int) -> tuple[list[int], int]:
    """Per suit, the run positions some run could still cover, and at most how many runs: only
    cards that some run could cover count, `least` of them a run."""
    rules = search.rules
    size = rules.min_run
    least = max(size - jokers, (size + 1) // 2)
    held = [0, 0, 0, 0]  # per suit, a bit per position held
    for _value, suit, _n, bits, _one in naturals:
        held[suit] |= bits
    reach = [
        _suit_reach(bits, jokers, size, search.frames) if bits.bit_count() >= least else 0
        for bits in held
    ]
    in_reach = [0, 0, 0, 0]
    for _value, suit, n, bits, _one in naturals:
        if reach[suit] & bits:
            in_reach[suit] += n
    return reach, sum(n // least for n in in_reach)


# The same few patterns of a suit recur from state to state and hand to hand.
@lru_cache(maxsize=4096)
def _suit_reach(held: int, jokers: int, size: int, frames: tuple) -> int:
    """The positions of one suit (bits `held`) that some run could cover: a stretch of at least
    `size` positions whose missing cards are jokers, at most `jokers` of them and no more than
    the naturals it holds.

    Each stretch is judged whole: a run longer than `size` may hold fewer naturals in some
    `size` positions of it than a run must in all (10S JK JK KS holds one in 10S JK JK).
    """
    reach = 0
    for low, high, _from_low in frames:
        for start in range(low, high - size + 2):
            missing = 0
            for end in range(start, high + 1):
                if not held >> end & 1:
                    missing += 1
                    if missing > jokers:
                        break
                length = end - start + 1
                if length >= size and 2 * missing <= length:
                    reach |= ((1 << length) - 1) << start
    return reach
