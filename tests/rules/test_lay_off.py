"""Laying off on table melds, and joker exchange settings."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Card, HouseRules, check_lay_off, parse_cards
from rules.cards import RANKS, SUITS

DEFAULT = HouseRules()


def lay(cards, meld, rules=DEFAULT, **options):
    return check_lay_off(parse_cards(cards), parse_cards(meld), rules, **options)


@pytest.mark.parametrize(
    ("cards", "meld", "result"),
    [
        ("9H", "5H 6H 7H 8H", "5H 6H 7H 8H 9H"),
        ("4H", "5H 6H 7H 8H", "4H 5H 6H 7H 8H"),
        ("3H 4H", "5H 6H 7H 8H", "3H 4H 5H 6H 7H 8H"),
        ("4H 9H", "5H 6H 7H 8H", "4H 5H 6H 7H 8H 9H"),
        ("AH", "JH QH KH JK=10H", "JK=10H JH QH KH AH"),
        ("JK", "5H 6H 7H 8H", "5H 6H 7H 8H JK=9H"),
        ("JK", "JH QH KH AH", "JK=10H JH QH KH AH"),  # the joker goes where there is room
        ("8C", "8H 8S 8D", "8S 8H 8D 8C"),
        ("8C 8C", "8H 8S JK", "8S 8H 8C 8C JK=8"),
        ("JK", "8H 8S 8D", "8S 8H 8D JK=8"),
        (
            "4H",
            "5H 6H 7H 8H JK",
            "4H 5H 6H 7H 8H JK=9H",
        ),  # an undeclared end joker reads either way
        ("9H", "JK 6H 7H 8H", "JK=5H 6H 7H 8H 9H"),
    ],
)
def test_legal_lay_offs(cards, meld, result):
    verdict = lay(cards, meld)
    assert verdict.ok, verdict.reasons
    assert str(verdict.melds[0]) == result


@pytest.mark.parametrize(
    ("cards", "meld", "reason"),
    [
        ("JK", "5H 6H JK=7H 8H", "a meld may hold at most one joker"),  # one joker kept
        ("JK", "8H 8S JK", "a meld may hold at most one joker"),
        ("7H", "5H 6H JK=7H 8H", "these rules do not allow a joker exchange"),
        ("6H", "5H 6H 7H 8H", "a run grows at its ends only"),
        ("10H", "5H 6H 7H 8H", "continue the run at an end"),
        ("9S", "5H 6H 7H 8H", "a run takes only hearts"),
        ("2H", "JH QH KH AH", "does not wrap"),
        ("AH", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "already complete"),
        ("9C", "8H 8S 8D", "a book takes only eights"),
        ("9C", "9C 9C 9H", "There are three 9C"),
        ("", "5H 6H 7H 8H", "No cards"),
        ("9H", "5H 6H 7H", "The meld on the table is not legal"),
    ],
)
def test_refused_lay_offs(cards, meld, reason):
    verdict = lay(cards, meld)
    assert not verdict.ok
    assert reason in " ".join(verdict.reasons)


def test_ace_low_lay_off():
    assert lay("AH", "2H 3H 4H 5H", HouseRules(ace="low")).ok
    assert not lay("AH", "2H 3H 4H 5H").ok
    rules = HouseRules(ace="high_or_low")
    assert lay("AH", "2H 3H 4H 5H", rules).ok
    assert not lay("AH", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", rules).ok


@pytest.mark.parametrize(
    ("options", "result"),
    [
        ({}, "5H 6H 7H 8H JK=9H"),
        ({"joker_end": "high"}, "5H 6H 7H 8H JK=9H"),
        ({"joker_end": "low"}, "JK=4H 5H 6H 7H 8H"),
    ],
)
def test_joker_swap_shift_to_end(options, result):
    rules = HouseRules(joker_swap="shift_to_end")
    verdict = lay("7H", "5H 6H JK=7H 8H", rules, **options)
    assert verdict.ok, verdict.reasons
    assert str(verdict.melds[0]) == result
    assert verdict.leftover == []


def test_shift_to_end_needs_room():
    rules = HouseRules(joker_swap="shift_to_end")
    full = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK=AH"
    verdict = lay("AH", full, rules)
    assert not verdict.ok
    assert "no room" in verdict.reasons[0]
    assert not lay("JH", "JK=JH QH KH AH", rules, joker_end="high").ok
    assert str(lay("JH", "JK=JH QH KH AH", rules).melds[0]) == "JK=10H JH QH KH AH"


def test_joker_swap_from_hand():
    rules = HouseRules(joker_swap="swap_from_hand")
    verdict = lay("7H", "5H 6H JK=7H 8H", rules)
    assert verdict.ok
    assert str(verdict.melds[0]) == "5H 6H 7H 8H"
    assert verdict.leftover == [Card("JK", None)]


def test_book_with_joker_takes_cards_of_its_rank_under_every_swap_setting():
    for swap in ("off", "shift_to_end", "swap_from_hand"):
        verdict = lay("8C", "8H 8S JK=8", HouseRules(joker_swap=swap))
        assert verdict.ok
        assert verdict.melds[0].jokers == 1


naturals = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
any_card = naturals | st.builds(lambda d: Card("JK", None, d), st.none() | naturals)


@settings(max_examples=200, deadline=None)
@given(st.lists(any_card, max_size=4), st.lists(any_card, max_size=8))
def test_garbage_never_crashes_lay_off(cards, meld):
    verdict = check_lay_off(cards, meld)
    assert verdict.ok or verdict.reasons


DISTINCT = HouseRules(book_suits_distinct=True)


@pytest.mark.parametrize(
    ("cards", "meld", "rules", "result", "kept"),
    [
        # Where suits may repeat, a book joker stands for the rank: an ordinary lay-off.
        ("10H", "10C 10C JK=10H", DEFAULT, "10H 10C 10C JK=10H", []),
        (
            "10H",
            "10C 10C JK=10H",
            HouseRules(joker_swap="swap_from_hand"),
            "10H 10C 10C JK=10H",
            [],
        ),
        # Suits must differ: an undeclared joker takes whichever missing suit keeps the book legal.
        ("QD", "QH QS JK", DISTINCT, "QS QH QD JK=QC", []),
        # Swapping the joker out of a book, where the rules allow it.
        (
            "QD",
            "QH QC JK=QD",
            HouseRules(book_suits_distinct=True, joker_swap="swap_from_hand"),
            "QH QD QC",
            ["JK"],
        ),
        (
            "QD",
            "QH QS QC JK",
            HouseRules(book_suits_distinct=True, joker_swap="swap_from_hand"),
            "QS QH QD QC",
            ["JK"],
        ),
    ],
)
def test_book_jokers_follow_rules_md(cards, meld, rules, result, kept):
    verdict = lay(cards, meld, rules)
    assert verdict.ok, verdict.reasons
    assert sorted(map(str, verdict.melds[0].cards)) == sorted(result.split())
    assert [str(card) for card in verdict.leftover] == kept


@pytest.mark.parametrize(
    ("cards", "meld", "rules", "reason"),
    [
        ("QD", "QH QC JK=QD", DISTINCT, "these rules do not allow a joker exchange"),
        ("QD", "QH QS QC JK", DISTINCT, "the joker in QS QH QC JK=QD stands for QD"),
        (
            "QD",
            "QH QC JK=QD",
            HouseRules(book_suits_distinct=True, joker_swap="shift_to_end"),
            "these rules move a joker only along a run",
        ),
    ],
)
def test_book_joker_exchanges_refused_with_their_reason(cards, meld, rules, reason):
    verdict = lay(cards, meld, rules)
    assert not verdict.ok
    assert reason in verdict.reasons[0]
    assert "takes only" not in verdict.reasons[0]


def test_a_joker_declared_by_rank_takes_the_runs_suit():
    verdict = lay("8H", "4H JK=5 6H 7H")
    assert verdict.ok
    assert str(verdict.melds[0]) == "4H JK=5H 6H 7H 8H"
