"""The going-down search against a brute-force oracle, and the hands that once made it slow.

The oracle knows nothing of the engine's search: it splits the cards into groups every possible
way, reads each group as a book or a run from the rules' words, and tries every reading. It is
exponential, so the hands are small (at most 9 cards); every setting that shapes a meld is drawn,
in any combination. Hands are either random cards of a few neighbouring ranks, or the contract's
melds dealt with jokers in them: a bound of the search that cuts too much turns a legal
going-down into a refusal, and random cards seldom hold one. Without the oracle, larger dealt
melds that pass as grouped must be found in the same cards ungrouped.
"""

from collections import Counter
from functools import cache
from itertools import combinations, product

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules import (
    Card,
    Contract,
    HouseRules,
    check_going_down,
    find_going_down,
    parse_cards,
    penalty_points,
)
from rules.cards import RANK_VALUE, RANKS, SUITS
from tests.depth import examples

JOKER = Card("JK", None)

# --- the oracle ------------------------------------------------------------------------------


def position(card, ace):
    """The run position of a natural or declared card, with the ace at `ace` (1 or 14)."""
    return ace if card.rank == "A" else RANK_VALUE[card.rank]


@cache
def readings(group, rules):
    """Every reading of a group of cards as one meld: ("book", rank value) or
    ("run", suit, low, high), straight from docs/rules.md, "Books and runs"."""
    naturals = [card for card in group if not card.is_joker]
    jokers = [card for card in group if card.is_joker]
    if len(jokers) > rules.jokers_per_meld or len(jokers) > len(naturals):
        return ()
    found = []
    ranks = {card.rank for card in naturals}
    declared = [joker.declared for joker in jokers if joker.declared is not None]
    if len(group) >= rules.min_book and len(ranks) == 1:
        (rank,) = ranks
        suits = [card.suit for card in naturals] + [d.suit for d in declared if d.suit]
        distinct = len(set(suits)) == len(suits) and len(group) <= 4
        if all(d.rank == rank for d in declared) and (distinct or not rules.book_suits_distinct):
            found.append(("book", RANK_VALUE[rank]))
    suits = {card.suit for card in naturals} | {d.suit for d in declared if d.suit}
    if len(group) >= rules.min_run and len(suits) == 1:
        (suit,) = suits
        fixed = naturals + [Card(d.rank, suit) for d in declared]  # a rank alone takes the suit
        frames = {"high": [(2, 14)], "low": [(1, 13)], "high_or_low": [(2, 14), (1, 13)]}
        for low, high in frames[rules.ace]:
            held = [position(card, 1 if low == 1 else 14) for card in fixed]
            if len(set(held)) != len(held):
                continue
            for start in range(low, high - len(group) + 2):
                if all(start <= p < start + len(group) for p in held):
                    found.append(("run", suit, start, start + len(group) - 1))
    return tuple(found)


def fits_together(choice, contract, rules):
    """Whether one reading per group makes the contract under the initial-meld rules."""
    books = [reading for reading in choice if reading[0] == "book"]
    runs = [reading for reading in choice if reading[0] == "run"]
    if rules.extra_melds_allowed and not contract.no_discard:
        if len(books) < contract.books or len(runs) < contract.runs:
            return False
    elif (len(books), len(runs)) != (contract.books, contract.runs):
        return False
    if rules.same_rank_books_banned and len({book[1] for book in books}) != len(books):
        return False
    for (_, suit, a, b), (_, other, c, d) in combinations(runs, 2):
        if suit != other:
            continue
        if rules.same_suit_runs_must_be_separated:
            if not (b + 1 < c or d + 1 < a):
                return False
        elif b + 1 == c or d + 1 == a:
            return False
    return True


def groupings(cards, rules):
    """Every split of the cards into groups that each read as some meld."""
    if not cards:
        yield []
        return
    first, rest = cards[0], cards[1:]
    smallest = min(rules.min_book, rules.min_run)
    for size in range(smallest - 1, len(rest) + 1):
        for others in combinations(range(len(rest)), size):
            group = tuple(sorted([first, *(rest[i] for i in others)], key=str))
            if not readings(group, rules):
                continue
            remaining = [card for i, card in enumerate(rest) if i not in others]
            for tail in groupings(remaining, rules):
                yield [group, *tail]


def oracle_cover(cards, contract, rules):
    """Whether all these cards make the contract."""
    return any(
        fits_together(choice, contract, rules)
        for groups in groupings(list(cards), rules)
        for choice in product(*(readings(group, rules) for group in groups))
    )


def oracle_best(hand, contract, rules):
    """The most points a going-down in this hand sheds, or None."""
    keep_one = rules.must_discard_to_go_out and not contract.no_discard
    best = None
    for size in range(len(hand), 0, -1):
        if contract.no_discard and size != len(hand) or keep_one and size == len(hand):
            continue
        for chosen in combinations(hand, size):
            points = penalty_points(list(chosen), rules)
            if (best is None or points > best) and oracle_cover(chosen, contract, rules):
                best = points
    return best


# --- what the engine answered, checked card by card --------------------------------------------


def assert_melds_are_the_hand(verdict, hand, contract, rules):
    """The melds are legal together and, with the cards kept, exactly the hand."""
    melds = [tuple(sorted(meld.cards, key=str)) for meld in verdict.melds]
    assert any(
        fits_together(choice, contract, rules)
        for choice in product(*(readings(meld, rules) for meld in melds))
    ), [str(meld) for meld in verdict.melds]
    laid = [card for meld in verdict.melds for card in meld.cards]
    naturals = Counter(card for card in laid + verdict.leftover if not card.is_joker)
    assert naturals == Counter(card for card in hand if not card.is_joker)
    # Each joker laid is one of the hand's, held to what the player declared.
    hand_jokers = Counter(card for card in hand if card.is_joker) - Counter(verdict.leftover)
    laid_jokers = [card.declared for card in laid if card.is_joker]
    assert len(laid_jokers) == hand_jokers.total()
    for joker in sorted(hand_jokers.elements(), key=_most_declared_first):
        target = joker.declared
        match = next(
            d
            for d in laid_jokers
            if target is None or (d.rank == target.rank and target.suit in (None, d.suit))
        )
        laid_jokers.remove(match)


def _most_declared_first(joker):
    declared = joker.declared
    return 2 if declared is None else 1 if declared.suit is None else 0


# --- hands and rules ---------------------------------------------------------------------------

# Every setting that shapes a meld or a going-down, drawn together: short books and runs with
# several jokers a meld are where the search's counting bounds cut closest.
SETTINGS = {
    "min_book": st.sampled_from([3, 2]),
    "min_run": st.sampled_from([4, 3]),
    "jokers_per_meld": st.sampled_from([1, 2, 3]),
    "ace": st.sampled_from(["high", "low", "high_or_low"]),
    "book_suits_distinct": st.booleans(),
    "same_rank_books_banned": st.booleans(),
    "same_suit_runs_must_be_separated": st.booleans(),
    "extra_melds_allowed": st.booleans(),
    "must_discard_to_go_out": st.booleans(),
}
variants = st.fixed_dictionaries(SETTINGS)
CONTRACTS = [
    Contract(2, 0),
    Contract(1, 1),
    Contract(0, 2),
    Contract(1, 0),
    Contract(0, 1),
    Contract(0, 2, no_discard=True),
    Contract(2, 1),
]


def rules_for(variant, contract):
    """Settings with a one-contract list, so the contract is number 1."""
    return HouseRules(**variant, contracts=[contract], cards_dealt=[11])


@st.composite
def small_hands(draw):
    """Up to 9 cards from a few neighbouring ranks of one or two suits (aces now and then),
    two copies at most, and up to three jokers, some declared."""
    first = draw(st.integers(0, len(RANKS) - 4))
    ranks = RANKS[first : first + draw(st.integers(2, 5))]
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=2, unique=True))
    pool = [Card(rank, suit) for rank in ranks for suit in suits] * 2
    naturals = draw(st.lists(st.sampled_from(range(len(pool))), max_size=8, unique=True))
    declared = st.none() | st.builds(Card, st.sampled_from(ranks), st.sampled_from(suits))
    declared |= st.builds(Card, st.sampled_from(ranks), st.none())
    jokers = draw(st.lists(declared, max_size=3).map(lambda ds: [Card("JK", None, d) for d in ds]))
    hand = [pool[i] for i in naturals] + jokers
    return draw(st.permutations(hand[:9]))


@st.composite
def dealt_melds(draw, contract):
    """The contract's books and runs, with jokers for some of a book's cards and for a gap in a
    run: books of two to four cards, runs of three to six, of any rank."""
    melds = []
    for kind in ["book"] * contract.books + ["run"] * contract.runs:
        if kind == "run":
            suit = draw(st.sampled_from(SUITS))
            length = draw(st.integers(3, 6))
            first = draw(st.integers(0, len(RANKS) - length))
            meld = [Card(rank, suit) for rank in RANKS[first : first + length]]
            gap = draw(st.integers(0, len(meld) - 1))
            places = range(gap, gap + draw(st.integers(0, 3)))
        else:
            rank = draw(st.sampled_from(RANKS))
            suits = draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=4))
            meld = [Card(rank, suit) for suit in suits]
            places = draw(st.sets(st.integers(0, len(meld) - 1), max_size=2))
        melds.append([JOKER if place in places else card for place, card in enumerate(meld)])
    return melds


@st.composite
def contract_hands(draw, contract):
    """Up to 9 cards dealt as the contract's melds, and now and then a stray card. A bound that
    cuts too much turns a legal going-down into a refusal, and random cards seldom hold one."""
    cards = [card for meld in draw(dealt_melds(contract)) for card in meld]
    strays = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
    cards.extend(draw(st.lists(strays, max_size=1)))
    # What two decks and their jokers hold: two copies of a card, and three jokers here.
    held = Counter()
    hand = []
    for card in cards:
        held[card] += 1
        if held[card] <= (3 if card.is_joker else 2):
            hand.append(card)
    return draw(st.permutations(hand[:9]))


@st.composite
def deals(draw):
    """A contract and a hand: cards of a few neighbouring ranks, or the contract's melds."""
    contract = draw(st.sampled_from(CONTRACTS))
    return draw(small_hands() | contract_hands(contract)), contract


@settings(max_examples=examples(dev=100, ci=400), deadline=None)
@given(deals(), variants)
def test_check_going_down_agrees_with_the_oracle(deal, variant):
    hand, contract = deal
    rules = rules_for(variant, contract)
    verdict = check_going_down(1, hand, rules)
    assert verdict.ok == oracle_cover(hand, contract, rules), verdict.reasons
    if verdict.ok:
        assert verdict.leftover == []
        assert_melds_are_the_hand(verdict, hand, contract, rules)
        assert verdict.points_shed == penalty_points(hand, rules)
    else:
        assert verdict.reasons


@settings(max_examples=examples(dev=75, ci=300), deadline=None)
@given(deals(), variants)
def test_find_going_down_agrees_with_the_oracle(deal, variant):
    hand, contract = deal
    rules = rules_for(variant, contract)
    verdict = find_going_down(1, hand, rules)
    best = oracle_best(hand, contract, rules)
    assert verdict.ok == (best is not None), verdict.reasons
    if verdict.ok:
        assert verdict.points_shed == best
        assert_melds_are_the_hand(verdict, hand, contract, rules)
        assert verdict.points_shed == penalty_points(
            [card for meld in verdict.melds for card in meld.cards], rules
        )
    else:
        assert verdict.reasons


def test_the_oracle_reads_melds_as_the_rules_say():
    rules = HouseRules()
    assert readings(tuple(parse_cards("8H 8S JK")), rules) == (("book", 8),)
    assert readings(tuple(parse_cards("JH QH KH JK")), rules) == (
        ("run", "H", 10, 13),
        ("run", "H", 11, 14),
    )
    assert readings(tuple(parse_cards("AH 2H 3H 4H")), rules) == ()
    assert readings(tuple(parse_cards("8H JK JK")), HouseRules(jokers_per_meld=2)) == ()
    assert oracle_best(parse_cards("8H 8S 8D 9C 9C 9H 2S"), Contract(2, 0), rules) == 60


@st.composite
def contract_melds(draw):
    """A contract and its melds, dealt."""
    contract = draw(st.sampled_from(CONTRACTS))
    return contract, draw(dealt_melds(contract))


@settings(max_examples=examples(dev=250, ci=1000), deadline=None)
@given(contract_melds(), variants)
def test_a_going_down_the_checker_accepts_grouped_is_found_in_the_cards(dealt, variant):
    """No oracle, so no limit on the cards: melds that pass as the player grouped them are
    found by both searches in the same cards ungrouped."""
    contract, melds = dealt
    rules = rules_for(variant, contract)
    assume(check_going_down(1, melds, rules).ok)
    cards = [card for meld in melds for card in meld]
    assert check_going_down(1, cards, rules).ok
    if rules.must_discard_to_go_out and not contract.no_discard:
        # A card to keep back, of which the two decks hold another copy.
        cards.append(next(card for card in parse_cards("2C 3D 4H") if cards.count(card) < 2))
    found = find_going_down(1, cards, rules)
    assert found.ok
    assert found.points_shed >= penalty_points([card for meld in melds for card in meld], rules)
