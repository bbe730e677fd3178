"""The going-down search's budget (rules/going_down/budget.py): a count of steps, so the same
question always gets the same answer, and a hand with too many possibilities gets an answer
that says so, never a wrong "cannot go down". Its speed is measured by `python -m rules.bench`."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import HouseRules, answer_question, check_going_down, find_going_down, parse_cards
from rules.bench import BOUNDS
from rules.going_down.budget import STEPS, Budget
from rules.going_down.verdicts import MAYBE_BETTER, TOO_MANY_TO_CHECK, TOO_MANY_TO_LIST
from tests.depth import examples
from tests.rules.test_going_down_oracle import (
    assert_melds_are_the_hand,
    deals,
    rules_for,
    variants,
)

# 24-card hands found by a hill-climb at the bounds (four decks, eight jokers, four jokers a
# meld): contract 7 took 14 s and 18 s of processor time before the search had a budget.
SLOW_SEVENS = [
    "3D JK 6H 9H 8H 8C 4H JK 4H 7D QH 7H 4D JK JH 5D JK KH JK JK 10D JK 5H 10H",
    "4S KC QC JC 7C 10C 10S 9C 5S 4C 8S JK AC KC 9S 8C 6C 4C JK JK JK JK 5C JK",
]
# Shapes at the bounds that hold more arrangements than the budget for some contracts.
WIDE_HANDS = [
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H 3H 4H JK JK JK JK JK JK JK JK",
    "5S 6S 7S 8S 9S 5H 6H 7H 8H 9H 5D 6D 7D 8D 9D 5C 6C 7C JK JK JK JK JK JK",
    "8S 8S 8S 8S 8H 8H 8H 8H 8D 8D 8D 8D 8C 8C 8C 8C JK=8 JK=8S JK=8H JK=8D JK=8C JK JK JK",
    *SLOW_SEVENS,
]


def spent(function, contract, hand, rules, limit=STEPS):
    """The verdict and the steps it took."""
    budget = Budget(limit)
    return function(contract, hand, rules, budget=budget), budget.spent


@pytest.mark.parametrize("text", SLOW_SEVENS)
def test_the_slowest_hands_found_at_the_bounds_get_too_many_possibilities(text):
    hand = parse_cards(text)
    down = answer_question("down", [hand], BOUNDS, contract=7)
    hint = answer_question("hint", [hand], BOUNDS, contract=7)
    assert (down.ok, down.gave_up, down.reasons) == (False, True, [TOO_MANY_TO_CHECK])
    assert (hint.ok, hint.gave_up, hint.reasons) == (False, True, [TOO_MANY_TO_LIST])
    # Said as it is: neither a yes nor a no.
    assert hint.text == TOO_MANY_TO_LIST


@pytest.mark.parametrize("contract", range(1, 8))
@pytest.mark.parametrize("text", WIDE_HANDS)
def test_at_the_bounds_every_answer_is_right_or_says_it_gave_up(text, contract):
    hand = parse_cards(text)
    for function in (check_going_down, find_going_down):
        verdict = function(contract, hand, BOUNDS)
        if verdict.ok:
            # A going-down found is legal, whether or not the search went on to the end.
            assert_melds_are_the_hand(verdict, hand, BOUNDS.contract(contract), BOUNDS)
            assert verdict.reasons == ([MAYBE_BETTER] if verdict.gave_up else [])
        elif verdict.gave_up:
            assert verdict.reasons in ([TOO_MANY_TO_CHECK], [TOO_MANY_TO_LIST])
        else:
            assert verdict.reasons  # a no is a no only when the search finished


def test_a_hint_that_gave_up_shows_the_legal_going_down_it_found():
    hand = parse_cards(WIDE_HANDS[0])
    verdict = find_going_down(2, hand, BOUNDS)
    assert verdict.ok and verdict.gave_up
    assert_melds_are_the_hand(verdict, hand, BOUNDS.contract(2), BOUNDS)
    answer = answer_question("hint", [hand], BOUNDS, contract=2)
    assert answer.ok and answer.gave_up
    assert answer.reasons[-1] == MAYBE_BETTER
    assert "is a book" in answer.reasons[0]
    assert answer.text.startswith("Yes. ")


@pytest.mark.parametrize("text", WIDE_HANDS[:3])
def test_the_budget_counts_steps_so_the_same_question_gets_the_same_answer(text):
    hand = parse_cards(text)
    for function in (check_going_down, find_going_down):
        first, first_steps = spent(function, 6, hand, BOUNDS)
        again, again_steps = spent(function, 6, hand, BOUNDS)
        assert first.to_dict() == again.to_dict()
        assert first_steps == again_steps


def test_a_hand_answered_in_n_steps_is_answered_the_same_with_n_and_gives_up_with_fewer():
    hand = parse_cards("5H 6H 7H 8H 9H 10H 5S 6S 7S 8S 9S 10S JK JK JK JK")
    full, steps = spent(find_going_down, 6, hand, HouseRules(), limit=10**9)
    assert full.ok and not full.gave_up and 100 < steps < STEPS
    exact, _ = spent(find_going_down, 6, hand, HouseRules(), limit=steps)
    assert exact.to_dict() == full.to_dict()
    short, _ = spent(find_going_down, 6, hand, HouseRules(), limit=steps - 1)
    assert short.gave_up
    # The legal going-down found before the steps ran out, or none yet; never "cannot".
    assert short.reasons in ([MAYBE_BETTER], [TOO_MANY_TO_LIST])
    assert short.points_shed <= full.points_shed


@settings(max_examples=examples(dev=50, ci=200), deadline=None)
@given(deals(), variants, st.integers(1, 400))
def test_a_smaller_budget_gives_the_same_answer_or_gives_up(deal, variant, limit):
    hand, contract = deal
    rules = rules_for(variant, contract)
    for function in (check_going_down, find_going_down):
        full, _ = spent(function, 1, hand, rules, limit=10**9)
        short, _ = spent(function, 1, hand, rules, limit=limit)
        if short.gave_up:
            assert short.reasons
            if short.ok:  # a hint: legal, and no better than the best
                assert_melds_are_the_hand(short, hand, contract, rules)
                assert short.points_shed <= full.points_shed
            continue
        # Finished: the same verdict (the reasons may leave out a sentence whose own search
        # ran out of steps, never give another yes or no).
        assert (short.ok, short.melds, short.leftover) == (full.ok, full.melds, full.leftover)
        assert short.points_shed == full.points_shed
        assert short.reasons if not short.ok else short.reasons == full.reasons
