"""Benchmark: python -m rules.bench [--samples N] [--seed S] [--part seed|bounds] [--contract C].

Under the seed rules: times check_meld on random melds, check_going_down on random flat 12-card
hands with up to three jokers, and find_going_down on random 11-15-card hands, for every
contract; then both on the largest legal hand of every contract (HouseRules.most_cards_held
cards): random hands with 0-4 jokers and shapes known to be slow.

At the house-rule bounds (BOUNDS: four decks, eight jokers, fifteen dealt, four jokers a meld,
so 24-card hands): every question of the meld checker, asked as the checker asks it
(answer_question), on the worst hands known: many jokers, long runs, four copies of a card,
and random hands; for every contract, and each contract alone. Each question's max and p95 are
what the budget of rules/going_down/budget.py keeps under 100 ms; "gave up" counts the answers
that said there were too many possibilities.

The last line printed is one JSON object with the figures (milliseconds).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence

from .cards import RANKS, SUITS, Card, format_cards, format_melds, parse_cards, parse_melds
from .going_down import check_going_down, find_going_down
from .house_rules import HouseRules
from .melds import check_meld
from .questions import Answer, Question, answer_question

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


def _percentile(times: list[float], share: float) -> float:
    return sorted(times)[max(0, int(len(times) * share) - 1)]


def _figures(name: str, times: list[float], worst_input: str) -> dict[str, object]:
    total = sum(times) / 1000
    return {
        "name": name,
        "calls": len(times),
        "per_second": round(len(times) / total) if total else None,
        "median_ms": round(statistics.median(times), 3),
        "p95_ms": round(_percentile(times, 0.95), 3),
        "p99_ms": round(_percentile(times, 0.99), 3),
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


# --- at the house-rule bounds ------------------------------------------------------------------

# Every setting that makes hands and melds bigger at its bound (rules/settings.py): four decks,
# eight jokers, fifteen dealt, four jokers a meld; two May I?s with three penalty cards each
# make the largest hand a player can hold, 24 cards.
BOUNDS = HouseRules(
    decks=4, jokers=8, cards_dealt=15, jokers_per_meld=4, may_i_limit=2, may_i_penalty_cards=3
)
# Ordered pools of natural cards: a hand takes the first 24 - jokers, with 8, 6 or 4 jokers.
_BOUNDS_SHAPES = {
    "hearts four times": [Card(rank, "H") for rank in RANKS for _copy in range(4)],
    "hearts twice": [Card(rank, "H") for rank in RANKS for _copy in range(2)],
    "two suits": [Card(rank, suit) for rank in RANKS[3:] for suit in "HS"],
    "two suits twice": [Card(rank, suit) for rank in RANKS[3:] for suit in "HSHS"],
    "three suits in order": [Card(rank, suit) for suit in "SHD" for rank in RANKS],
    "four suits of low ranks": [Card(rank, suit) for rank in RANKS for suit in SUITS],
    "five ranks by suit": [Card(rank, suit) for suit in SUITS for rank in RANKS[3:8]],
}
# 24-card hands found slow at the bounds by a hill-climbing search (each took 1 to 19 s of
# processor time before the search had a budget), and every copy of a rank with jokers
# declared every way, the most candidate books one card can anchor.
_BOUNDS_FOUND_SLOW = (
    "3D JK 6H 9H 8H 8C 4H JK 4H 7D QH 7H 4D JK JH 5D JK KH JK JK 10D JK 5H 10H",
    "4S KC QC JC 7C 10C 10S 9C 5S 4C 8S JK AC KC 9S 8C 6C 4C JK JK JK JK 5C JK",
    "10H 3D 4D 4H 4H 5D 5H 5H 6H 7H 8C 8D 8D 8H 9H AD JH JK JK JK JK JK KH QC",
    "8S 8S 8S 8S 8H 8H 8H 8H 8D 8D 8D 8D 8C 8C 8C 8C JK=8 JK=8S JK=8H JK=8D JK=8C JK JK JK",
)
# The longest melds the bounds allow (HouseRules.most_cards_in_meld, 20 cards), legal or not.
_BOUNDS_MELDS = (
    "8S 8S 8S 8S 8H 8H 8H 8H 8D 8D 8D 8D 8C 8C 8C 8C JK JK JK JK",
    "2H 3H JK 5H 6H JK 8H 9H JK JK QH KH AH",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2H 3H 4H JK JK JK JK",
    "2H 4H 6H 8H 10H QH AH 3H 5H 7H JK JK JK JK",
    "AS AH AD AC KS KH KD KC QS QH QD QC JS JH JD JC JK JK JK JK",
)


def _bounds_hands(rng: random.Random, samples: int) -> list[tuple[str, list[Card]]]:
    """The worst shapes known, the slow hands found, and random hands with 0 to 8 jokers."""
    size = BOUNDS.most_cards_held(1)
    hands = []
    for jokers in (8, 6, 4):
        for name, pool in _BOUNDS_SHAPES.items():
            if len(pool) >= size - jokers:
                hands.append((f"{name}, {jokers} jokers", pool[: size - jokers] + [JOKER] * jokers))
    hands += [("found slow", parse_cards(text)) for text in _BOUNDS_FOUND_SLOW]
    deck = _deck(BOUNDS)
    hands += [
        (f"random, {index % 9} jokers", _hand(rng, deck, size, index % 9))
        for index in range(samples)
    ]
    return hands


def _random_table(rng: random.Random, deck: list[Card], melds: int) -> list[list[Card]]:
    """A table of legal melds, as many as eight players going down with four melds each lay."""
    table = []
    while len(table) < melds:
        cards = _random_meld(rng, deck)
        verdict = check_meld(cards, BOUNDS)
        if verdict.ok:
            table.append(list(verdict.melds[0].cards))
    return table


def _timed(call: Callable[[], Answer]) -> tuple[float, Answer]:
    start = time.process_time()
    answer = call()
    return (time.process_time() - start) * 1000, answer


def _ask(
    question: Question, groups: list[list[Card]], contract: int, **table: object
) -> Callable[[], Answer]:
    return lambda: answer_question(question, groups, BOUNDS, contract=contract, **table)


def run_bounds(samples: int = 2000, seed: int = 1, contract: int | None = None) -> dict:
    """Time every checker question at the house-rule bounds and return the figures: per
    question for every contract, and the going-down questions per contract."""
    rng = random.Random(seed)
    deck = _deck(BOUNDS)
    contracts = [contract] if contract else list(range(1, len(BOUNDS.contracts) + 1))
    hands = _bounds_hands(rng, max(9, samples // 40))
    # question -> (ms, gave up, input, contract) of each answer
    timings: dict[str, list[tuple[float, bool, str, int]]] = {
        kind: [] for kind in ("meld", "down", "down_grouped", "hint", "layoff", "shanghai")
    }

    def note(kind: str, call: Callable[[], Answer], text: str, number: int = 0) -> Answer:
        elapsed, answer = _timed(call)
        timings[kind].append((elapsed, answer.gave_up, text, number))
        return answer

    for number in contracts:
        for label, hand in hands:
            text = f"{number}: {format_cards(hand)} ({label})"
            note("down", _ask(Question.GOING_DOWN, [hand], number), text, number)
            found = note("hint", _ask(Question.HINT, [hand], number), text, number)
            # The melds a player would type after the hint, or the hand cut into fours.
            groups = [list(meld.cards) for meld in found.melds]
            groups = groups or [hand[start : start + 4] for start in range(0, len(hand), 4)]
            grouped = f"{number}: {format_melds(groups)} ({label})"
            note("down_grouped", _ask(Question.GOING_DOWN, groups, number), grouped, number)
        # Four runs of two cards and two jokers: every group has the most readings.
        groups = parse_melds("6H 7H JK JK | 6S 7S JK JK | 6D 7D JK JK | 6C 7C JK JK")
        grouped = f"{number}: {format_melds(groups)}"
        note("down_grouped", _ask(Question.GOING_DOWN, groups, number), grouped, number)
    # Questions that do not depend on the contract, asked once.
    last = contracts[-1]
    melds = [parse_cards(text) for text in _BOUNDS_MELDS]
    melds += [_random_meld(rng, deck) for _ in range(max(9, samples // 10))]
    for meld in melds:
        note("meld", _ask(Question.MELD, [meld], last), format_cards(meld))
    for label, hand in hands:
        table = _random_table(rng, deck, 32)
        for target in range(0, len(table), 4):
            # A card or a few, as players lay off, and now and then the whole hand.
            cards = hand[: (1, 2, 4, len(hand))[target // 4 % 4]]
            text = f"{format_cards(cards)} onto {format_cards(table[target])} ({label})"
            note(
                "layoff",
                _ask(Question.LAY_OFF, [cards], last, table_melds=table, target=target),
                text,
            )
        for card in hand[:4]:
            text = f"{card} against a table of {len(table)} melds"
            note("shanghai", _ask(Question.SHANGHAI, [[card]], last, table_melds=table), text)
    figures = {}
    for kind, rows in timings.items():
        figures[f"bounds_{kind}"] = _answer_figures(f"{kind} at the bounds", rows)
    for kind in ("down", "hint"):
        for number in contracts if len(contracts) > 1 else ():
            rows = [row for row in timings[kind] if row[3] == number]
            figures[f"bounds_{kind}_{number}"] = _answer_figures(
                f"{kind} at the bounds, contract {number}", rows
            )
    return figures


def _answer_figures(name: str, rows: list[tuple[float, bool, str, int]]) -> dict[str, object]:
    """Figures of one question, and how many of its answers gave up."""
    times = [row[0] for row in rows]
    worst = max(rows, key=lambda row: row[0])
    return {**_figures(name, times, worst[2]), "gave_up": sum(row[1] for row in rows)}


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures, one line per function, then one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m rules.bench", description=__doc__)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--part", choices=("all", "seed", "bounds"), default="all")
    parser.add_argument(
        "--contract", type=int, default=None, help="at the bounds, only this contract"
    )
    arguments = parser.parse_args(argv)
    figures = {}
    if arguments.part in ("all", "seed"):
        figures.update(run(arguments.samples, arguments.seed))
    if arguments.part in ("all", "bounds"):
        figures.update(run_bounds(arguments.samples, arguments.seed, arguments.contract))
    for item in figures.values():
        gave_up = f"  gave up {item['gave_up']}" if "gave_up" in item else ""
        print(
            f"{item['name']:<42} {item['calls']:>6} calls  "
            f"median {item['median_ms']:.3f} ms  p95 {item['p95_ms']:.3f} ms  "
            f"p99 {item['p99_ms']:.3f} ms  max {item['worst_ms']:.3f} ms{gave_up}"
        )
        print(f"    worst input: {item['worst_input']}")
    summary = {key: {k: v for k, v in item.items() if k != "name"} for key, item in figures.items()}
    print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
