"""Benchmark: python -m rules.bench [--samples N] [--seed S].

Times check_meld on random melds, check_going_down on random flat 12-card hands with up to
three jokers, and find_going_down on random 11-15-card hands, for every contract; then both
on the largest legal hand of every contract (HouseRules.most_cards_held cards): random hands
with 0-4 jokers and shapes known to be slow. The last line printed is one JSON object with
the figures (milliseconds).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence

from .cards import RANKS, SUITS, Card, format_cards, parse_cards
from .going_down import check_going_down, find_going_down
from .house_rules import HouseRules
from .melds import check_meld

JOKER = Card("JK", None)


def _deck(rules: HouseRules) -> list[Card]:
    return [Card(rank, suit) for rank in RANKS for suit in SUITS] * rules.decks


def _random_meld(rng: random.Random, deck: list[Card]) -> list[Card]:
    """Half near-legal melds (books and runs, a joker sometimes), half random cards."""
    if rng.random() < 0.25:
        rank = rng.choice(RANKS)
        cards = [Card(rank, rng.choice(SUITS)) for _ in range(rng.randint(2, 6))]
    elif rng.random() < 0.5:
        suit = rng.choice(SUITS)
        length = rng.randint(3, 13)
        start = rng.randint(0, 13 - length)
        cards = [Card(rank, suit) for rank in RANKS[start : start + length]]
    else:
        cards = rng.sample(deck, rng.randint(3, 8))
    if rng.random() < 0.4:
        cards[rng.randrange(len(cards))] = JOKER
    rng.shuffle(cards)
    return cards


def _hand(rng: random.Random, deck: list[Card], size: int, jokers: int) -> list[Card]:
    hand = rng.sample(deck, size - jokers) + [JOKER] * jokers
    rng.shuffle(hand)
    return hand


# Hands that made the going-down search slow, as an ordered pool of natural cards and a number
# of jokers: a hand of n cards takes the first n - jokers naturals.
_SLOW_SHAPES = {
    "two suits": ([Card(rank, suit) for rank in RANKS[3:] for suit in "HS"], 4),
    "hearts twice": ([Card(rank, "H") for rank in RANKS for _copy in range(2)], 4),
    "four suits of low ranks": ([Card(rank, suit) for rank in RANKS for suit in SUITS], 4),
    "pairs of two suits": ([Card(rank, suit) for rank in RANKS[2:] for suit in "HS" * 2], 0),
    "three suits in order": ([Card(rank, suit) for suit in "SHD" for rank in RANKS[2:]], 2),
    "five ranks by suit": ([Card(rank, suit) for suit in SUITS for rank in RANKS[3:8]], 2),
    "five ranks by rank": ([Card(rank, suit) for rank in RANKS[3:] for suit in "SHD"], 2),
    "high ranks by suit": ([Card(rank, suit) for suit in SUITS for rank in RANKS[8:]], 2),
}
# Hands of 18 cards (the most under the seed rules) found slow by a hill-climbing search.
_FOUND_SLOW = (
    "6S 6C 6C 6D 3S 9H 5C 9C 3S 9D 6D 3D 9C 9S 9H JK 6H 6S",
    "4D 10C JH AH 8H 8S 9S 10H 6D JK 4D 9D KH 7D QH 7H 9H JK",
    "JK 8D 6C 5C JH 4D 7H JK 8C 5H 4C 8D 6H 7C 7C 8H 4C 7H",
    "8S 10D 7H AH JK 9D JC 9S 2S 2C 7C 8D 10S JD 7D JK JK 7S",
    "10D 6S 8C 6D JK JD JH 6C 8S 6H 8S 10C 10H 6S JH 6C 6D JK",
    "4D JD 9H 5D JH 7H 6D JK 7D 8D JK 6H 7D 5H JK 8H 7H 8H",
    "6C 9D 9S 5C AS 9H 6H 2H QD AD 9C 9C QH 9S 9D 2H JK 9H",
)


def _slow_hands(size: int) -> list[tuple[str, list[Card]]]:
    hands = []
    for name, (pool, jokers) in _SLOW_SHAPES.items():
        if len(pool) >= size - jokers:
            hands.append((name, pool[: size - jokers] + [JOKER] * jokers))
    found = [parse_cards(text) for text in _FOUND_SLOW]
    hands += [("found slow", hand) for hand in found if len(hand) == size]
    return hands


def _time(call: Callable[[], object]) -> float:
    """Milliseconds of processor time: other work on a shared machine does not count."""
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def _figures(name: str, times: list[float], worst_input: str) -> dict[str, object]:
    total = sum(times) / 1000
    return {
        "name": name,
        "calls": len(times),
        "per_second": round(len(times) / total) if total else None,
        "median_ms": round(statistics.median(times), 3),
        "p99_ms": round(sorted(times)[int(len(times) * 0.99) - 1], 3),
        "worst_ms": round(max(times), 3),
        "worst_input": worst_input,
    }


def _measure(name: str, cases: Sequence[tuple[Callable[[], object], str]]) -> dict[str, object]:
    times = []
    worst, worst_input = -1.0, ""
    for call, label in cases:
        elapsed = _time(call)
        times.append(elapsed)
        if elapsed > worst:
            worst, worst_input = elapsed, label
    return _figures(name, times, worst_input)


def run(samples: int = 2000, seed: int = 1, rules: HouseRules | None = None) -> dict[str, object]:
    """Run the benchmark and return its figures."""
    rules = rules or HouseRules()
    rng = random.Random(seed)
    deck = _deck(rules)
    contracts = range(1, len(rules.contracts) + 1)

    melds = [_random_meld(rng, deck) for _ in range(samples)]
    meld_cases = [(lambda m=m: check_meld(m, rules), format_cards(m)) for m in melds]

    down_cases = []
    for index in range(samples):
        contract = contracts[index % len(contracts)]
        hand = _hand(rng, deck, 12, rng.randint(0, 3))
        down_cases.append(
            (
                lambda c=contract, h=hand: check_going_down(c, h, rules),
                f"{contract}: {format_cards(hand)}",
            )
        )

    find_cases = []
    for index in range(samples // 2):
        contract = contracts[index % len(contracts)]
        hand = _hand(rng, deck, rng.randint(11, 15), rng.choice((0, 0, 0, 1, 1, 2, 3)))
        find_cases.append(
            (
                lambda c=contract, h=hand: find_going_down(c, h, rules),
                f"{contract}: {format_cards(hand)}",
            )
        )
    largest = {"check_going_down": [], "find_going_down": []}
    for contract in contracts:
        size = rules.most_cards_held(contract)
        hands = [
            (f"random, {jokers} jokers", _hand(rng, deck, size, jokers))
            for jokers in _jokers_per_sample(samples // (4 * len(contracts)))
        ]
        hands += _slow_hands(size)
        for function in (check_going_down, find_going_down):
            largest[function.__name__].extend(
                (
                    lambda f=function, c=contract, h=hand: f(c, h, rules),
                    f"{contract}: {format_cards(hand)} ({label})",
                )
                for label, hand in hands
            )
    return {
        "check_meld": _measure("check_meld", meld_cases),
        "check_going_down": _measure("check_going_down (12 cards, 0-3 jokers)", down_cases),
        "find_going_down": _measure("find_going_down (11-15 cards)", find_cases),
        "check_going_down_largest": _measure(
            "check_going_down (largest hand)", largest["check_going_down"]
        ),
        "find_going_down_largest": _measure(
            "find_going_down (largest hand)", largest["find_going_down"]
        ),
    }


def _jokers_per_sample(samples: int) -> list[int]:
    """0 to 4 jokers in turn, so that every count is measured even with few samples."""
    return [index % 5 for index in range(max(samples, 5))]


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures, one line per function, then one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m rules.bench", description=__doc__)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args(argv)
    figures = run(arguments.samples, arguments.seed)
    for item in figures.values():
        print(
            f"{item['name']:<42} {item['per_second']:>8} calls/s  "
            f"median {item['median_ms']:.3f} ms  p99 {item['p99_ms']:.3f} ms  "
            f"worst {item['worst_ms']:.3f} ms"
        )
        print(f"    worst input: {item['worst_input']}")
    summary = {key: {k: v for k, v in item.items() if k != "name"} for key, item in figures.items()}
    print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
