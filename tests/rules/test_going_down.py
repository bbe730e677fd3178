"""Going down: contracts, initial-meld rules, contract 7, and the search against an oracle."""

from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    Card,
    Contract,
    HouseRules,
    check_going_down,
    check_meld,
    find_going_down,
    parse_cards,
    parse_melds,
    penalty_points,
)
from rules.cards import RANK_VALUE, RANKS, SUITS

DEFAULT = HouseRules()


def down(contract, text, rules=DEFAULT):
    cards = parse_melds(text) if "|" in text else parse_cards(text)
    return check_going_down(contract, cards, rules)


@pytest.mark.parametrize(
    ("contract", "text"),
    [
        (1, "8H 8S 8D 9C 9C 9H"),
        (1, "8H 8S 8D | 9C 9C 9H"),
        (1, "8H 8S 8D 8C 9C 9C JK"),  # a four-card book
        (2, "8H 8S 8D 3C 4C 5C 6C"),
        (2, "8H 8S JK | 3C 4C 5C 6C 7C"),  # a five-card run
        (3, "3S 4S 5S 6S | 9D 10D JD QD"),
        (3, "3S 4S 5S 6S 9D 10D JD QD"),
        (3, "6H 7H 8H 9H JH QH KH AH"),  # a gap at the ten
        (3, "6H 7H 8H 9H 6H 7H 8H 9H"),  # identical runs of one suit
        (3, "6H 7H 8H 9H 8H 9H 10H JH"),  # overlapping runs of one suit
        (4, "2S 2H 2D 5S 5H JK KD KC KS"),
        (5, "2S 2H 2D 5S 5H JK 9C 10C JC QC"),
        (6, "2S 2H 2D 5S 6S 7S 8S 9C 10C JC QC"),
        (7, "2H 3H 4H 5H 7S 8S 9S JK 10D JD QD KD"),
        (7, "2H 3H 4H 5H 6H 7S 8S 9S JK 10D JD QD KD AD"),  # longer runs, whole hand
    ],
)
def test_legal_going_down(contract, text):
    verdict = down(contract, text)
    assert verdict.ok, verdict.reasons
    assert verdict.leftover == []
    assert verdict.points_shed == penalty_points(parse_cards(text.replace("|", " ")))


@pytest.mark.parametrize(
    ("contract", "text", "reason"),
    [
        (1, "8H 8S 8D 8C 8H 8S", "two books of eights"),  # six eights are not two books
        (1, "8H 8S 8D | 8C 8H JK", "two books of eights"),  # a joker counts as the book's rank
        (3, "6H 7H 8H 9H 10H JH QH KH", "consecutive runs of hearts"),
        (3, "6H 7H 8H 9H | 10H JH QH KH", "consecutive runs of hearts"),
        (1, "8H 8S 8D 9C 9C 9H 10S 10H 10D", "10S 10H 10D does not fit"),
        (1, "8H 8S 8D | 9C 9C 9H | 10S 10H 10D", "needs 2 books; these melds are 3 books"),
        (3, "8H 8S 8D | 3C 4C 5C 6C", "needs 2 runs"),
        (2, "8H 8S | 3C 4C 5C 6C", "a book needs at least 3 cards"),
        (2, "8H 8S 8D 3C 4C 5C 6C 9D", "cannot be laid out as 1 book and 1 run"),
        (7, "2H 3H 4H 5H 7S 8S 9S JK 10D JD QD KD 4C", "does not fit"),
        (3, "3S 4S 5S", "needs at least 8 cards"),
        (1, "9C 9C 9C 8H 8S 8D", "There are three 9C"),
        (9, "8H 8S 8D", "There is no contract 9"),
        (1, "", "No cards"),
    ],
)
def test_refused_going_down(contract, text, reason):
    verdict = down(contract, text)
    assert not verdict.ok
    assert reason in " ".join(verdict.reasons)


def test_joker_assignment_is_searched_before_refusing_consecutive_runs():
    # JK as 10H would make the runs touch; as AH it leaves a gap at 10.
    verdict = down(3, "6H 7H 8H 9H JH QH KH JK")
    assert verdict.ok, verdict.reasons
    assert [str(m) for m in verdict.melds] == ["6H 7H 8H 9H", "JH QH KH JK=AH"]


def test_declared_joker_is_held_to_its_declaration():
    assert not down(3, "6H 7H 8H 9H JH QH KH JK=10H").ok


def test_same_rank_books_allowed_when_setting_off():
    rules = HouseRules(same_rank_books_banned=False)
    assert down(1, "8H 8S 8D 8C 8H 8S", rules).ok


@pytest.mark.parametrize(
    ("text", "legal"),
    [
        ("6H 7H 8H 9H 6H 7H 8H 9H", False),  # identical
        ("6H 7H 8H 9H 8H 9H 10H JH", False),  # overlapping
        ("6H 7H 8H 9H 10H JH QH KH", False),  # adjacent
        ("6H 7H 8H 9H JH QH KH AH", True),  # gap
        ("6H 7H 8H 9H 10S JS QS KS", True),  # other suits
    ],
)
def test_same_suit_runs_must_be_separated(text, legal):
    rules = HouseRules(same_suit_runs_must_be_separated=True)
    assert down(3, text, rules).ok is legal


def test_extra_melds_setting():
    text = "8H 8S 8D 9C 9C 9H 10S 10H 10D"
    assert not down(1, text).ok
    assert down(1, text, HouseRules(extra_melds_allowed=True)).ok
    assert down(1, "8H 8S 8D | 9C 9C 9H | 3C 4C 5C 6C", HouseRules(extra_melds_allowed=True)).ok


def test_contract_list_is_a_setting():
    rules = HouseRules(contracts=(Contract(1, 0), Contract(0, 1, True)), cards_dealt=(7, 4))
    assert down(1, "8H 8S 8D", rules).ok
    assert down(2, "3C 4C 5C 6C", rules).ok
    assert not down(2, "3C 4C 5C 6C 9D", rules).ok


def test_find_going_down_sheds_most_points():
    hand = parse_cards("8H 8S 8D 4C 5C 6C JK KS 2D 9H 3H AS AH AD")
    verdict = find_going_down(2, hand)
    assert verdict.ok
    assert [str(m) for m in verdict.melds] == ["AS AH AD", "4C 5C 6C JK=7C"]
    assert verdict.points_shed == 60 + 15 + 50
    assert sorted(map(str, verdict.leftover)) == sorted(["8H", "8S", "8D", "KS", "2D", "9H", "3H"])


def test_find_going_down_needs_substitution_of_a_joker():
    verdict = find_going_down(2, parse_cards("4H 5H 6H 7H 7S JK JK"))
    assert verdict.ok
    assert verdict.leftover == []


def test_find_says_what_is_missing():
    verdict = find_going_down(2, parse_cards("8H 8S 8D 2C 5D 9S KH QH"))
    assert not verdict.ok
    assert verdict.reasons == [
        "This hand cannot go down for Contract 2 (One book, one run): it needs 1 book and 1 run.",
        "It holds at most 1 book.",
    ]


def test_find_for_contract_7_uses_the_whole_hand():
    hand = parse_cards("2H 3H 4H 5H 7S 8S 9S JK 10D JD QD KD")
    assert find_going_down(7, hand).ok
    verdict = find_going_down(7, [*hand, Card("4", "C")])
    assert not verdict.ok
    assert "whole hand" in verdict.reasons[0]


def test_must_discard_keeps_a_card_back():
    hand = parse_cards("8H 8S 8D 9C 9C 9H")
    assert find_going_down(1, hand).ok
    assert not find_going_down(1, hand, HouseRules(must_discard_to_go_out=True)).ok


# --- an independent brute-force oracle ------------------------------------------------------


def readings(group, rules):
    """Every (kind, rank-or-suit, low, high) a group of cards can be read as, by brute force."""
    naturals = [c for c in group if not c.is_joker]
    jokers = len(group) - len(naturals)
    if jokers > rules.jokers_per_meld or jokers > len(naturals):
        return []
    found = []
    if len({c.rank for c in naturals}) == 1 and len(group) >= rules.min_book:
        value = RANK_VALUE[naturals[0].rank]
        found.append(("book", value, value, value))
    if len({c.suit for c in naturals}) == 1 and len(group) >= rules.min_run:
        aces = {"high": [14], "low": [1], "high_or_low": [1, 14]}[rules.ace]
        for ace in aces:
            values = [ace if c.rank == "A" else RANK_VALUE[c.rank] for c in naturals]
            for joker_values in product(range(1, 15), repeat=jokers):
                allowed = set(range(2, 15)) if ace == 14 else set(range(1, 14))
                if rules.ace == "high_or_low" and not naturals_have_ace(naturals):
                    allowed = set(range(1, 15))
                every = values + list(joker_values)
                if len(set(every)) != len(every) or not set(every) <= allowed:
                    continue
                if 1 in every and 14 in every:
                    continue
                if max(every) - min(every) + 1 == len(every):
                    found.append(("run", naturals[0].suit, min(every), max(every)))
    return found


def naturals_have_ace(naturals):
    return any(c.rank == "A" for c in naturals)


def fits_together(choice, contract, rules):
    books = [r for r in choice if r[0] == "book"]
    runs = [r for r in choice if r[0] == "run"]
    if rules.extra_melds_allowed:
        if len(books) < contract.books or len(runs) < contract.runs:
            return False
    elif (len(books), len(runs)) != (contract.books, contract.runs):
        return False
    if rules.same_rank_books_banned and len({b[1] for b in books}) != len(books):
        return False
    for first, second in combinations(runs, 2):
        if first[1] == second[1] and (first[3] + 1 == second[2] or second[3] + 1 == first[2]):
            return False
    return True


def partitions(cards):
    """Every way to split the cards into groups of three or more."""
    if not cards:
        yield []
        return
    first, rest = cards[0], cards[1:]
    for size in range(2, len(rest) + 1):
        for others in combinations(range(len(rest)), size):
            group = [first] + [rest[i] for i in others]
            remaining = [rest[i] for i in range(len(rest)) if i not in others]
            for tail in partitions(remaining):
                yield [group, *tail]


def oracle_cover(cards, contract, rules):
    for groups in partitions(cards):
        options = [readings(group, rules) for group in groups]
        if any(not option for option in options):
            continue
        if any(fits_together(choice, contract, rules) for choice in product(*options)):
            return True
    return False


def oracle_best(hand, contract, rules):
    best = None
    for size in range(len(hand), 0, -1):
        for chosen in combinations(range(len(hand)), size):
            cards = [hand[i] for i in chosen]
            points = penalty_points(cards, rules)
            if best is not None and points <= best:
                continue
            if contract.no_discard and size != len(hand):
                continue
            if oracle_cover(cards, contract, rules):
                best = points
    return best


small_pool = [Card(rank, suit) for rank in ("5", "6", "7", "8", "9") for suit in ("H", "S")] * 2
small_pool += [Card("JK", None)] * 3
small_hands = st.lists(
    st.integers(0, len(small_pool) - 1), min_size=3, max_size=8, unique=True
).map(lambda picks: [small_pool[i] for i in picks])
rule_sets = st.sampled_from(
    [
        HouseRules(),
        HouseRules(min_run=3, ace="high_or_low"),
        HouseRules(same_rank_books_banned=False, jokers_per_meld=2),
    ]
)
contracts = st.sampled_from([Contract(2, 0), Contract(1, 1), Contract(0, 2), Contract(0, 1)])


def rules_with(rules, contract):
    return HouseRules.from_dict(
        {
            **rules.to_dict(),
            "contracts": [{"books": contract.books, "runs": contract.runs}],
            "cards_dealt": [11],
        }
    )


@settings(max_examples=120, deadline=None)
@given(small_hands, rule_sets, contracts)
def test_check_going_down_agrees_with_brute_force(hand, rules, contract):
    rules = rules_with(rules, contract)
    verdict = check_going_down(1, hand, rules)
    assert verdict.ok == oracle_cover(hand, contract, rules), verdict.reasons
    if verdict.ok:
        for meld in verdict.melds:
            assert check_meld(meld.cards, rules).ok


@settings(max_examples=80, deadline=None)
@given(small_hands, rule_sets, contracts)
def test_find_going_down_agrees_with_brute_force(hand, rules, contract):
    rules = rules_with(rules, contract)
    verdict = find_going_down(1, hand, rules)
    best = oracle_best(hand, contract, rules)
    assert verdict.ok == (best is not None), verdict.reasons
    if verdict.ok:
        assert verdict.points_shed == best
        used = [card for meld in verdict.melds for card in meld.cards]
        assert len(used) + len(verdict.leftover) == len(hand)
        plain = [Card("JK", None) if c.is_joker else c for c in used]
        assert check_going_down(1, [list(m.cards) for m in verdict.melds], rules).ok
        assert sorted(map(str, plain + verdict.leftover)) == sorted(map(str, hand))


naturals = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
any_card = naturals | st.builds(lambda d: Card("JK", None, d), st.none() | naturals)


@settings(max_examples=150, deadline=None)
@given(st.lists(any_card, max_size=15), st.integers(0, 8))
def test_garbage_never_crashes_going_down(cards, contract):
    for verdict in (check_going_down(contract, cards), find_going_down(contract, cards)):
        assert verdict.ok or verdict.reasons


@pytest.mark.parametrize(
    "text",
    [
        "3H 4H 5H 6H | 8S 9S 10S JS | 2D 3D 4D 5D | 9C 10C JC QC",
        "3H 4H 5H 6H 8S 9S 10S JS 2D 3D 4D 5D 9C 10C JC QC",
    ],
)
def test_a_no_discard_contract_is_exactly_its_melds_even_with_extra_melds(text):
    verdict = down(7, text, HouseRules(extra_melds_allowed=True))
    assert not verdict.ok
    assert down(7, text.replace(" | 9C 10C JC QC", "").replace(" 9C 10C JC QC", "")).ok


@pytest.mark.parametrize("text", ["4H JK=5 6H 7H | 9S 10S JS QS", "4H JK=5 6H 7H 9S 10S JS QS"])
def test_a_joker_declared_by_rank_alone_takes_the_runs_suit(text):
    verdict = down(3, text)
    assert verdict.ok, verdict.reasons
    assert "4H JK=5H 6H 7H" in [str(meld) for meld in verdict.melds]


def test_the_hint_uses_a_joker_declared_by_rank_alone():
    verdict = find_going_down(3, parse_cards("4H JK=5 6H 7H 9S 10S JS QS KD"), DEFAULT)
    assert verdict.ok
    assert [str(card) for card in verdict.leftover] == ["KD"]


def test_a_book_joker_declared_by_rank_alone_takes_a_missing_suit():
    distinct = HouseRules(book_suits_distinct=True)
    assert down(1, "QH QS JK=Q | 8S 8H 8D", distinct).ok
    assert down(1, "QH QS JK=Q 8S 8H 8D", distinct).ok
