"""Penalty points and score-entry checks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    Card,
    HouseRules,
    down_after_correction,
    hand_problems,
    held_refusal,
    parse_cards,
    parse_ranks,
    penalty_points,
    points_possible,
    points_refusal,
    round_scores,
)
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


@pytest.mark.parametrize(
    ("points", "most_cards", "possible"),
    [
        (5, 1, True),
        (7, 18, False),  # every card is worth a multiple of five
        (75, 4, True),  # K K 7 JK
        (50, 1, True),
        (200, 4, True),  # four jokers
        (250, 5, False),  # a fifth joker: the decks hold four
        (400, 18, True),
        (1000, 18, False),  # 18 cards are worth at most 4 jokers and 14 aces: 480
        (0, 5, False),  # a player who did not go out holds a card
        (15, 1, False),  # one card is worth 5, 10, 20 or 50
    ],
)
def test_points_possible_knows_what_hands_can_be_worth(points, most_cards, possible):
    assert points_possible(points, most_cards) is possible


def test_points_possible_follows_the_tables_own_points():
    odd = HouseRules(points={"7": 7})
    assert points_possible(7, 1, odd)
    assert points_possible(12, 2, odd)
    assert not points_possible(7, 1)


@given(st.lists(st.sampled_from([*RANKS, "JK"]), min_size=1, max_size=12))
def test_points_possible_for_every_real_hand(ranks):
    hand = [Card(rank=rank, suit=None) for rank in ranks]
    if not hand_problems([hand]):
        assert points_possible(penalty_points(hand), len(hand))


@pytest.mark.parametrize(
    ("settings", "rummy", "claims", "scores"),
    [
        ({}, False, {}, {"ann": 0, "ben": 15, "cat": 40}),
        ({}, True, {"ben": 2}, {"ann": 0, "ben": 15, "cat": 40}),  # both bonuses off
        ({"rummy_bonus": True}, True, {}, {"ann": 0, "ben": 30, "cat": 80}),
        ({"rummy_bonus": True}, False, {}, {"ann": 0, "ben": 15, "cat": 40}),
        ({"shanghai_bonus": 10}, False, {"ben": 1}, {"ann": 0, "ben": 5, "cat": 40}),
        ({"shanghai_bonus": 10}, False, {"ann": 2}, {"ann": -20, "ben": 15, "cat": 40}),
        (
            {"shanghai_bonus": 5, "rummy_bonus": True},
            True,
            {"cat": 1},
            {"ann": 0, "ben": 30, "cat": 75},
        ),
    ],
)
def test_round_scores_apply_the_bonuses_in_force(settings, rummy, claims, scores):
    penalties = {"ann": 0, "ben": 15, "cat": 40}
    rules = HouseRules(**settings)
    assert round_scores(penalties, rules, rummy=rummy, shanghai_claims=claims) == scores


@pytest.mark.parametrize(
    ("held", "words"),
    [
        (11, None),
        (
            12,
            "Ann cannot hold 12 cards: at most 11 in contract 2 "
            "(the deal plus what May I?s brought).",
        ),
    ],
)
def test_a_hand_holds_no_more_than_the_deal_and_what_it_took(held, words):
    assert held_refusal(player="Ann", held=held, most_cards=11, contract=2) == words


@pytest.mark.parametrize(
    ("points", "words"),
    [
        (5, None),
        (0, "Ann did not go out, so they hold at least one card: points above 0."),
        (-5, "Ann did not go out, so they hold at least one card: points above 0."),
        (
            3,
            "No hand of at most 11 cards is worth 3 points under this table's rules: "
            "check Ann's points.",
        ),
        (
            1,
            "No hand of at most 11 cards is worth 1 point under this table's rules: "
            "check Ann's points.",
        ),
    ],
)
def test_points_left_in_hand_are_above_zero_and_possible(points, words):
    assert points_refusal(player="Ann", points=points, most_cards=11) == words


@pytest.mark.parametrize(
    ("down", "was_out", "went_out", "went_down_first", "after"),
    [
        # Ann went out from her hand: Ben went out instead, so she never went down.
        ({"ann", "cat"}, "ann", "ben", False, {"ben", "cat"}),
        # Ann had gone down before she went out: she stays down.
        ({"ann", "cat"}, "ann", "ben", True, {"ann", "ben", "cat"}),
        # Ben was down already: nothing more to say about him.
        ({"ann", "ben"}, "ann", "ben", False, {"ben"}),
        # Who went out is unchanged: nobody's flag moves.
        ({"ann"}, "ann", "ann", False, {"ann"}),
        # Only the player who no longer went out is reconsidered, whoever else is down.
        ({"ann", "cat", "dev"}, "ann", "cat", False, {"cat", "dev"}),
    ],
)
def test_who_is_down_once_who_went_out_is_corrected(
    down, was_out, went_out, went_down_first, after
):
    corrected = down_after_correction(
        down, was_out=was_out, went_out=went_out, went_down_first=went_down_first
    )
    assert corrected == after
    assert went_out in corrected


def test_a_correction_leaves_the_set_it_was_given_as_it_was():
    down = frozenset({"ann"})
    down_after_correction(down, was_out="ann", went_out="ben", went_down_first=False)
    assert down == {"ann"}
