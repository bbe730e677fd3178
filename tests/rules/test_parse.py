"""Card notation: parsing, formatting and the errors for bad tokens."""

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    Card,
    CardError,
    cards_written,
    format_cards,
    parse_cards,
    parse_melds,
    parse_ranks,
    rank_spellings,
)
from rules.cards import RANKS, SUITS

H7 = Card("7", "H")
JK = Card("JK", None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H", [H7]),
        ("7h", [H7]),
        ("H7", [H7]),
        ("♥7", [H7]),
        ("7♥", [H7]),
        ("7♥️", [H7]),
        ("♥️7", [H7]),
        ("10S", [Card("10", "S")]),
        ("TS", [Card("10", "S")]),
        ("♠10", [Card("10", "S")]),
        ("qd, AC", [Card("Q", "D"), Card("A", "C")]),
        ("JK", [JK]),
        ("joker", [JK]),
        ("*", [JK]),
        ("🃏", [JK]),
        ("JK=9H", [Card("JK", None, Card("9", "H"))]),
        ("JK(9H)", [Card("JK", None, Card("9", "H"))]),
        ("jk=♥9", [Card("JK", None, Card("9", "H"))]),
        ("JK=8", [Card("JK", None, Card("8", None))]),
        ("  7H ,, 8H  ", [H7, Card("8", "H")]),
        ("", []),
    ],
)
def test_parse_cards(text, expected):
    assert parse_cards(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1H", '"1H" is not a card: ranks are 2-10, J, Q, K, A'),
        ("7X", '"7X" is not a card: suits are S, H, D, C'),
        ("7", '"7" is not a card: it needs a suit'),
        ("11H", '"11H" is not a card: ranks are 2-10, J, Q, K, A'),
        ("JK=JK", "a joker cannot stand for another joker"),
        ("JK=1H", "JK=1H"),
        ("hello", '"hello" is not a card'),
    ],
)
def test_bad_tokens_name_the_token(text, message):
    with pytest.raises(CardError) as error:
        parse_cards(text)
    assert message in str(error.value)


@pytest.mark.parametrize("separator", ["|", "/", ";", "\n", " | "])
def test_parse_melds_separators(separator):
    text = f"3S 4S 5S 6S{separator}9D 9H 9C"
    assert parse_melds(text) == [parse_cards("3S 4S 5S 6S"), parse_cards("9D 9H 9C")]


def test_parse_melds_skips_empty_groups():
    assert parse_melds("7H 8H 9H JK ||\n") == [parse_cards("7H 8H 9H JK")]


def test_parse_ranks_for_scoring():
    cards = parse_ranks("K K 7 JK 10 A 5H")
    assert [str(card) for card in cards] == ["K", "K", "7", "JK", "10", "A", "5H"]
    assert cards[0] == Card("K", None)


def test_rank_spellings_are_each_card_parse_ranks_reads():
    spellings = rank_spellings()
    assert spellings["10♥"] == spellings["T"] == spellings["H10"] == spellings["10"] == "10"
    assert spellings["*"] == spellings["JOKER"] == "JK"
    for text, rank in spellings.items():
        assert [card.rank for card in parse_ranks(text)] == [rank]
    assert not {"1", "JKH", "HJK", "10X", "KK"} & set(spellings)


def test_cards_written_counts_every_word_read_or_not():
    assert cards_written("K 7, JK | 8H ZZ") == 5
    assert cards_written(" | ") == cards_written("") == 0


def test_parse_ranks_refuses_bad_tokens():
    with pytest.raises(CardError, match='"1" is not a card'):
        parse_ranks("K 1")


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        ([Card("10", "H"), Card("J", "D"), Card("JK", None, Card("9", "H"))], "10H JD JK=9H"),
        ([JK, Card("A", "S")], "JK AS"),
    ],
)
def test_format_cards(cards, text):
    assert format_cards(cards) == text
    assert parse_cards(text) == cards


def test_format_with_symbols():
    assert format_cards(parse_cards("10H JK=9S"), symbols=True) == "10♥ JK=9♠"


@pytest.mark.parametrize(
    ("args", "message"),
    [(("1", "H"), "not a rank"), (("7", "X"), "not a suit"), (("JK", "H"), "no suit")],
)
def test_card_constructor_validates(args, message):
    with pytest.raises(CardError, match=message):
        Card(*args)


def test_cards_are_hashable_values():
    assert {Card("7", "H"), Card("7", "H")} == {H7}


naturals = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
jokers = st.builds(lambda declared: Card("JK", None, declared), st.none() | naturals)
cards = st.lists(naturals | jokers, max_size=15)


@settings(max_examples=200, deadline=None)
@given(cards)
def test_parse_format_round_trip(hand):
    assert parse_cards(format_cards(hand)) == hand
    assert parse_cards(format_cards(hand, symbols=True)) == hand


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_garbage_text_raises_only_card_error(text):
    for parse in (parse_cards, parse_melds, parse_ranks):
        with contextlib.suppress(CardError):
            parse(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789TJQKASHDCjk*=()♠♥♦♣\ufe0f🃏 ,|/;\n", max_size=30))
def test_near_miss_text_raises_only_card_error(text):
    with contextlib.suppress(CardError):
        parse_melds(text)
