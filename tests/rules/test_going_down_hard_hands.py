"""Hands that once held the going-down search for up to a second and a half: the verdicts, and
the reasons given, stay those of the search before it was bounded (commit 9953451). Their
speed is measured by `python -m rules.bench`, not here."""

import pytest

from rules import HouseRules, check_going_down, find_going_down, parse_cards

SEED = HouseRules()

# hand, the contracts it is a whole going-down for, and per contract 1 to 7 the points the best
# going-down sheds (None: there is none)
HARD_HANDS = [
    (
        "5H 6H 7H 8H 9H 10H 5S 6S 7S 8S 9S 10S JK JK JK JK",
        set(),
        (140, 155, 190, 210, 215, 240, None),
    ),
    (
        "2H 3H 4H 5H 6H 7H 2H 3H 4H 5H 6H 7H JK JK JK JK",
        set(),
        (120, 135, 160, 180, 190, 210, None),
    ),
    (
        "2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C JK JK JK JK",
        set(),
        (140, 130, 130, 210, 195, 190, None),
    ),
    (
        "5H 5S 6H 6S 7H 7S 8H 8S 9H 9S 10H 10S JH JS JK JK JK JK",
        set(),
        (140, 165, 210, 210, 225, 260, None),
    ),
    (
        "2H 2H 3H 3H 4H 4H 5H 5H 6H 6H 7H 7H 8H 8H JK JK JK JK",
        set(),
        (130, 150, 180, 190, 205, 230, None),
    ),
    (
        "4S 5S 6S 7S 8S 9S 10S JS QS KS AS 4H 5H 6H 7H 8H JK JK",
        {3, 6, 7},
        (130, 210, 230, None, 210, 230, 230),
    ),
    (
        "6S 6C 6C 6D 3S 9H 5C 9C 3S 9D 6D 3D 9C 9S 9H JK 6H 6S",
        set(),
        (145, None, None, 160, None, None, None),
    ),
    (
        "2H 3H 4H 5H 6H JK 8S 9S 10S JS QS KS 4D 5D JK 7D 8D 9D",
        {7},
        (140, 170, 195, None, 180, 200, 220),
    ),
    (
        "5S 5S 5H 5H 5D JK 9S 9S 9H 9C 9D 9D KS KH KD KC KC JK",
        {4},
        (210, None, None, 235, None, None, None),
    ),
    (
        "5S 6S 7S 8S 9S 5H 6H 7H 8H 9H 5D 6D 7D 8D 9D 5C JK JK",
        set(),
        (160, 155, 170, 180, 175, 180, None),
    ),
    (
        "10S JS QS KS AS 10H JH QH KH AH 10D JD QD KD AD 10C JK JK",
        set(),
        (200, 200, 220, 230, 230, 240, None),
    ),
]


@pytest.mark.parametrize(
    ("text", "contract", "legal", "best"),
    [
        (text, contract, contract in legal_for, best)
        for text, legal_for, row in HARD_HANDS
        for contract, best in enumerate(row, start=1)
    ],
)
def test_hard_hand_verdicts(text, contract, legal, best):
    hand = parse_cards(text)
    assert check_going_down(contract, hand, SEED).ok is legal
    found = find_going_down(contract, hand, SEED)
    assert found.ok is (best is not None)
    assert found.points_shed == (best or 0)
    if legal:
        assert found.ok and found.leftover == []


def test_hard_hands_explain_refusals_as_before():
    two_suits = parse_cards("5H 6H 7H 8H 9H 10H 5S 6S 7S 8S 9S 10S JK JK JK JK")
    assert check_going_down(6, two_suits, SEED).reasons == [
        "5H 6H 7H 8H 9H 10H 5S 6S 7S 8S 9S 10S JK JK JK JK cannot be laid out as 1 book and "
        "2 runs using every card.",
        "JK does not fit: the closest is 6S 6H JK=6 | 5H JK=6H 7H 8H 9H 10H | "
        "5S JK=6S 7S 8S 9S 10S.",
    ]
    assert find_going_down(7, two_suits, SEED).reasons == [
        "Contract 7 (Three runs, no discard) must use the whole hand, and this hand cannot "
        "make 3 runs."
    ]
    low_ranks = parse_cards("2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C JK JK JK JK")
    assert check_going_down(4, low_ranks, SEED).reasons == [
        "2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C JK JK JK JK cannot be laid out as 3 books using "
        "every card.",
        "JK does not fit: the closest is 2S 2H 2D 2C JK=2 | 3S 3H 3D 3C JK=3 | 4S 4H 4D 4C JK=4.",
    ]
    books = parse_cards("6S 6C 6C 6D 3S 9H 5C 9C 3S 9D 6D 3D 9C 9S 9H JK 6H 6S")
    assert find_going_down(5, books, SEED).reasons == [
        "This hand cannot go down for Contract 5 (Two books, one run): it needs 2 books and 1 run.",
        "It holds at most 2 books.",
    ]
