"""Shanghai cards: discards that could be laid off on a table meld."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Card, HouseRules, parse_cards, parse_melds, shanghai_targets
from rules.cards import RANKS, SUITS

TABLE = "5H 6H 7H 8H | KS KD KC | JK=10D JD QD KD | 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"


DEFAULT = HouseRules()


def targets(discard, table=TABLE, rules=DEFAULT):
    return shanghai_targets(parse_cards(discard)[0], parse_melds(table), rules)


@pytest.mark.parametrize(
    ("discard", "expected"),
    [
        ("9H", [0]),
        ("4H", [0]),
        ("KH", [1]),
        ("AD", [2]),
        ("9D", [2]),  # below the joker: the run still holds one joker
        ("10D", []),  # the joker stands for it: an exchange, not a lay-off
        ("2S", []),
        ("AC", []),  # meets a full run: nothing more fits
        ("JK", [0, 1]),  # jokers fit melds without a joker, where there is room
    ],
)
def test_shanghai_targets(discard, expected):
    assert targets(discard) == expected


def test_ace_meeting_a_run_at_the_low_end():
    assert targets("AH", "2H 3H 4H 5H") == []
    assert targets("AH", "2H 3H 4H 5H", HouseRules(ace="low")) == [0]


def test_exchange_counts_only_when_the_joker_stays_on_the_table():
    table = "5H 6H JK=7H 8H"
    assert targets("7H", table) == []
    assert targets("7H", table, HouseRules(joker_swap="shift_to_end")) == [0]
    assert targets("7H", table, HouseRules(joker_swap="swap_from_hand")) == []


def test_joker_limit_setting_changes_eligibility():
    assert targets("JK", "5H 6H JK=7H 8H") == []
    assert targets("JK", "5H 6H JK=7H 8H", HouseRules(jokers_per_meld=2)) == [0]


naturals = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
any_card = naturals | st.builds(lambda d: Card("JK", None, d), st.none() | naturals)


@settings(max_examples=100, deadline=None)
@given(any_card, st.lists(st.lists(any_card, max_size=6), max_size=4))
def test_garbage_never_crashes_shanghai(discard, table):
    assert all(0 <= i < len(table) for i in shanghai_targets(discard, table))


def test_a_discard_fits_a_book_where_the_joker_can_take_another_suit():
    distinct = HouseRules(book_suits_distinct=True)
    assert targets("QD", "QH QS JK", distinct) == [0]
    assert targets("QD", "QH QS QC JK", distinct) == []
    assert targets("10H", "10C 10C JK=10H") == [0]
