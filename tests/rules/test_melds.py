"""Single melds: books, runs, jokers and every ace mode."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Card, HouseRules, check_meld, format_cards, parse_cards
from rules.cards import RANKS, SUITS

DEFAULT = HouseRules()


def meld(text, rules=DEFAULT):
    return check_meld(parse_cards(text), rules)


@pytest.mark.parametrize(
    "text",
    [
        "8H 8S 8D",
        "8H 8H 8S",  # duplicates from two decks
        "KH KH KS KS KD KD",  # six kings are one book
        "8H 8H 8S 8S 8D 8D 8C 8C JK",  # eight eights and a joker
        "AH AS AD",  # books of aces
        "8H 8S JK",
        "JK 8H 8S 8C",
        "7H 8H 9H 10H",
        "10H 7H 9H 8H",  # any order
        "JH QH KH AH",  # aces high
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",  # the 13-card run
        "7H 8H JK 10H",  # joker inside
        "JK 8H 9H 10H",  # joker at an end
        "7H 8H 9H JK",
        "QH KH AH JK",  # the joker is the jack, never above the ace
        "7H JK=8H 9H 10H",  # declared joker
        "JK=8 8H 8S",
    ],
)
def test_legal_melds(text):
    verdict = meld(text)
    assert verdict.ok, verdict.reasons
    assert verdict.reasons == []
    assert bool(verdict)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("8H 8S", "8H 8S is not a book: a book needs at least 3 cards."),
        ("7H 8H 9H", "7H 8H 9H is not a run: a run needs at least 4 cards."),
        ("AH 2H 3H 4H", "AH 2H 3H 4H is not a run: aces are high only."),
        ("QH KH AH 2H", "runs do not wrap around"),
        ("KH AH 2H 3H", "runs do not wrap around"),
        ("5H 6H 9H 10H", "missing 7H and 8H"),
        ("5H 6H 8H 10H JK", "missing"),
        ("7H 8S 9D 10C", "neither a book nor a run"),
        ("8H 8S JK JK", "a meld may hold at most one joker"),
        ("5H 5H 6H 7H", "a run holds each rank only once"),
        ("7H JK=8S 9H 10H", "cannot stand in a run of hearts"),
        ("8H 8S JK=9H", "cannot stand in a book of eights"),
        ("JK=10H 7H 8H 9H JK", "at most one joker"),
        ("9C 9C 9C", "There are three 9C: two decks hold only two."),
        ("JK 7H 8H 9H JK JK JK JK", "There are five jokers: the game has only four."),
        ("", "No cards"),
    ],
)
def test_illegal_melds_say_why(text, reason):
    verdict = meld(text)
    assert not verdict.ok
    assert reason in " ".join(verdict.reasons)


def test_rank_only_cards_cannot_meld():
    verdict = check_meld([Card("8", None)] * 3)
    assert verdict.reasons == ["8 has no suit: melds need whole cards, like 8H."]


def test_fourteen_hearts_is_not_a_run():
    assert not meld("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", HouseRules(ace="high_or_low"))


@pytest.mark.parametrize(
    ("ace", "text", "legal"),
    [
        ("high", "JH QH KH AH", True),
        ("high", "AH 2H 3H 4H", False),
        ("high", "JK 2H 3H 4H", True),
        ("low", "AH 2H 3H 4H", True),
        ("low", "JH QH KH AH", False),
        ("low", "JK QH KH AH", False),
        ("low", "JK 2H 3H 4H", True),
        ("high_or_low", "AH 2H 3H 4H", True),
        ("high_or_low", "JH QH KH AH", True),
        ("high_or_low", "KH AH 2H 3H", False),
        ("high_or_low", "QH KH AH 2H", False),
        ("high_or_low", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", True),
        ("high_or_low", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", True),
        ("high_or_low", "JK 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", True),
    ],
)
def test_ace_modes(ace, text, legal):
    assert meld(text, HouseRules(ace=ace)).ok is legal


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H 8H JK 10H", "7H 8H JK=9H 10H"),
        ("QH KH AH JK", "JK=JH QH KH AH"),
        ("7H 8H 9H JK", "7H 8H 9H JK=10H"),  # free joker goes to the high end
        ("JK=6H 7H 8H 9H", "JK=6H 7H 8H 9H"),  # a declaration is kept
        ("10H 7H 9H 8H", "7H 8H 9H 10H"),
        ("8S 8H JK", "8S 8H JK=8"),
    ],
)
def test_meld_reports_joker_card_and_order(text, expected):
    verdict = meld(text)
    assert format_cards(verdict.melds[0].cards) == expected


def test_low_ace_run_order():
    verdict = meld("3H AH 2H 4H", HouseRules(ace="low"))
    assert str(verdict.melds[0]) == "AH 2H 3H 4H"


@pytest.mark.parametrize(
    ("rules", "text", "legal"),
    [
        (HouseRules(min_book=4), "8H 8S 8D", False),
        (HouseRules(min_book=4), "8H 8S 8D 8C", True),
        (HouseRules(min_book=2), "8H 8S", True),
        (HouseRules(min_run=3), "7H 8H 9H", True),
        (HouseRules(min_run=5), "7H 8H 9H 10H", False),
        (HouseRules(book_suits_distinct=True), "8H 8H 8S", False),
        (HouseRules(book_suits_distinct=True), "8H 8D 8S 8C", True),
        (HouseRules(book_suits_distinct=True), "8H 8D 8S JK", True),
        (HouseRules(book_suits_distinct=True), "8H 8D 8S 8C JK", False),
        (HouseRules(jokers_per_meld=2), "8H 8S JK JK", True),
        (HouseRules(jokers_per_meld=2), "8H JK JK", False),
        (HouseRules(jokers_per_meld=2), "7H JK 9H JK", True),
        (HouseRules(jokers_per_meld=0), "7H 8H 9H JK", False),
    ],
)
def test_meld_settings(rules, text, legal):
    assert meld(text, rules).ok is legal


def test_distinct_suit_book_gives_joker_a_missing_suit():
    verdict = meld("8S 8H 8D JK", HouseRules(book_suits_distinct=True))
    assert str(verdict.melds[0]) == "8S 8H 8D JK=8C"


def test_meld_kind_and_declared_cards():
    verdict = meld("5C JK 7C 8C")
    (run,) = verdict.melds
    assert run.kind == "run"
    assert run.cards[1] == Card("JK", None, Card("6", "C"))
    assert run.suit == "C"
    assert run.span == (5, 8)


naturals = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
any_card = naturals | st.builds(lambda d: Card("JK", None, d), st.none() | naturals)


@st.composite
def legal_melds(draw):
    if draw(st.booleans()):
        rank = draw(st.sampled_from(RANKS))
        size = draw(st.integers(3, 8))
        cards = [Card(rank, draw(st.sampled_from(SUITS))) for _ in range(size)]
        cards = [c for c in cards if cards.count(c) <= 2]
        if len(cards) < 3:
            cards = [Card(rank, "S"), Card(rank, "H"), Card(rank, "D")]
    else:
        suit = draw(st.sampled_from(SUITS))
        length = draw(st.integers(4, 13))
        start = draw(st.integers(2, 15 - length))
        cards = [Card(RANKS[value - 2], suit) for value in range(start, start + length)]
    if draw(st.booleans()):
        cards[draw(st.integers(0, len(cards) - 1))] = Card("JK", None)
    return cards


@settings(max_examples=150, deadline=None)
@given(legal_melds(), st.randoms(use_true_random=False))
def test_a_legal_meld_stays_legal_in_any_order(cards, random):
    assert check_meld(cards).ok
    random.shuffle(cards)
    assert check_meld(cards).ok


@settings(max_examples=150, deadline=None)
@given(st.lists(any_card, max_size=10))
def test_a_second_joker_never_makes_a_meld_legal(cards):
    if sum(card.is_joker for card in cards) != 1:
        return
    if not check_meld(cards).ok:
        assert not check_meld([*cards, Card("JK", None)]).ok
    assert not check_meld([*cards, Card("JK", None)]).ok


@settings(max_examples=300, deadline=None)
@given(st.lists(any_card | st.builds(Card, st.sampled_from(RANKS), st.none()), max_size=16))
def test_garbage_card_lists_get_a_verdict(cards):
    verdict = check_meld(cards)
    assert verdict.ok or verdict.reasons
