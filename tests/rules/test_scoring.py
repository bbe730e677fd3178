"""Penalty points and score-entry checks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Card, HouseRules, hand_problems, parse_cards, parse_ranks, penalty_points
from rules.cards import RANKS, SUITS


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("", 0),
        ("2H 7S", 10),
        ("8H 9H 10H JH QH KH", 60),
        ("AS", 20),
        ("JK", 50),
        ("JK=9H", 50),
        ("KH 7S JK", 65),
    ],
)
def test_default_points(text, points):
    assert penalty_points(parse_cards(text)) == points


def test_rank_only_hands_score_the_same():
    assert penalty_points(parse_ranks("K K 7 JK 10 A")) == 10 + 10 + 5 + 50 + 10 + 20


def test_points_are_a_setting():
    rules = HouseRules(points={"A": 15, "JK": 25})
    assert penalty_points(parse_ranks("A JK 2"), rules) == 15 + 25 + 5


@pytest.mark.parametrize(
    ("hands", "problem"),
    [
        (["9C 9C", "9C"], "There are three 9C: two decks hold only two."),
        (["K K K K", "K K K K K"], "There are 9 kings: two decks hold only 8."),
        (["JK JK JK", "JK JK"], "There are five jokers: the game has only four."),
    ],
)
def test_hand_problems(hands, problem):
    assert hand_problems([parse_ranks(hand) for hand in hands]) == [problem]


def test_possible_hands_have_no_problems():
    assert hand_problems([parse_ranks("9C 9C K K"), parse_ranks("K K JK JK JK JK")]) == []


def test_hand_problems_follow_deck_settings():
    hands = [parse_ranks("9C 9C 9C")]
    assert hand_problems(hands, HouseRules(decks=3, max_players=4)) == []
    assert hand_problems([parse_ranks("JK")], HouseRules(jokers=0)) == [
        "There is one joker: the game has no jokers."
    ]


card = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS) | st.none()) | st.just(
    Card("JK", None)
)


@settings(max_examples=200, deadline=None)
@given(st.lists(card, max_size=20))
def test_points_equal_the_per_card_sum(cards):
    rules = HouseRules()
    points = dict(rules.points)
    assert penalty_points(cards, rules) == sum(points[c.rank] for c in cards)
    assert penalty_points(cards) == sum(penalty_points([c]) for c in cards)
