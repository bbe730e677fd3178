"""The named variants against the pages they follow: each one's contracts, deal, cards and scores
as its source states them, one test a variant, the source's own figures written out in it.

The table's state machine plays every variant through (tests/scorekeeper/table_machine.py), and
tests/rules/test_rules_reference.py checks docs/rules.md's table of variants against `changes`.
"""

import pytest

import rules
from rules import Contract, HouseRules, RulesError

# The contracts each page lists, in its words: (books, runs, no discard).
SEVEN_CONTRACTS = [
    (2, 0, False),  # two sets (books) of three
    (1, 1, False),  # one set of three and one run (sequence) of four
    (0, 2, False),  # two runs of four
    (3, 0, False),  # three sets of three
    (2, 1, False),  # two sets and one run
    (1, 2, False),  # one set and two runs
    (0, 3, True),  # three runs, the whole hand down with no discard
]


def contracts_of(house_rules: HouseRules) -> list[tuple[int, int, bool]]:
    return [(c.books, c.runs, c.no_discard) for c in house_rules.contracts]


def points_of(house_rules: HouseRules, hand: str) -> int:
    return rules.penalty_points(rules.parse_ranks(hand), house_rules)


def is_meld(house_rules: HouseRules, cards: str) -> bool:
    return rules.check_meld(rules.parse_cards(cards), house_rules).ok


def test_every_variant_has_a_key_a_line_and_a_source_page():
    keys = [variant.key for variant in rules.VARIANTS]
    assert len(keys) == len(set(keys))
    for variant in rules.VARIANTS:
        assert rules.variant(variant.key) is variant
        assert variant.name and variant.description.endswith(".")
        assert variant.source_url.startswith(("https://", "http://"))


def test_an_unknown_variant_is_refused_naming_the_known_ones():
    with pytest.raises(RulesError, match="shanghai, contract_rummy, liverpool"):
        rules.variant("canasta")


def test_shanghai_is_the_seed_game():
    """pagat.com's Contract Rummy page, its Shanghai Rummy (Mark Allen Davis's family rules):
    https://www.pagat.com/rummy/contract_rummy.html (read in a copy of that section at
    http://www.rummynews.com/ro/shanghai-rummy.html); the points are docs/rules.md's."""
    shanghai = rules.variant("shanghai")
    seed = shanghai.house_rules
    assert seed == HouseRules()
    assert shanghai.changes == ()
    # "anywhere from 3 to 5 players. Two regular decks of cards -- including the jokers -- or a
    # total of 108 cards"
    assert (seed.min_players, seed.max_players) == (3, 5)
    assert 52 * seed.decks + seed.jokers == 108
    # "each player receives eleven cards off the deal, and there are seven contracts"
    assert seed.cards_dealt == (11,) * 7
    assert contracts_of(seed) == SEVEN_CONTRACTS
    # "aces can only be used as a high card, so A-2-3-4 is not an acceptable four-card run"
    assert is_meld(seed, "JH QH KH AH")
    assert not is_meld(seed, "AH 2H 3H 4H")
    # "You cannot use more than one joker in a book or a run"
    assert seed.jokers_per_meld == 1
    assert not is_meld(seed, "8H 8S JK JK")
    # "No player can lay down two books of the same rank - six kings do not make two books."
    six_kings = rules.parse_melds("KH KS KD | KC KH KS")
    assert not rules.check_going_down(1, six_kings, seed).ok
    # The May I?: "no more than twice in each round".
    assert seed.may_i_limit == 2
    # 2 to 7 are 5, 8 to K 10, an ace 20, a joker 50.
    assert points_of(seed, "2 7 8 K A JK") == 5 + 5 + 10 + 10 + 20 + 50


def test_contract_rummy_as_bicycle_gives_it():
    """Bicycle's Contract Rummy (the United States Playing Card Company):
    https://bicyclecards.com/how-to-play/contract-rummy (read as stored at
    http://www.bicyclecards.com/card-games/rule/contract-rummy)."""
    contract_rummy = rules.variant("contract_rummy").house_rules
    # "For three or four players, a double pack with one joker is used (105 cards in all)."
    assert (contract_rummy.min_players, contract_rummy.max_players) == (3, 4)
    assert 52 * contract_rummy.decks + contract_rummy.jokers == 105
    # "Each game consists of seven deals ... In each of the first four deals, each player receives
    # 10 cards. In each of the last three deals, each player receives 12 cards."
    assert contract_rummy.cards_dealt == (10, 10, 10, 10, 12, 12, 12)
    assert contracts_of(contract_rummy) == SEVEN_CONTRACTS
    # "Ace, joker ... count as 15 points; each face card counts 10; each other card counts its
    # pip value."
    assert points_of(contract_rummy, "A JK") == 30
    assert points_of(contract_rummy, "J Q K") == 30
    assert points_of(contract_rummy, "2 3 9 10") == 2 + 3 + 9 + 10
    # "A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2, A. (Aces are high or low.)"
    assert is_meld(contract_rummy, "AS 2S 3S 4S")
    assert is_meld(contract_rummy, "JS QS KS AS")
    assert not is_meld(contract_rummy, "QS KS AS 2S")


def test_liverpool_as_weekend_america_gives_it():
    """Weekend America's Liverpool Rummy Rules (American Public Media, 13 August 2005):
    http://weekendamerica.publicradio.org/programs/2005/08/13/rummy.html"""
    liverpool = rules.variant("liverpool").house_rules
    # "For up to 4 players you use 2 decks including all 4 jokers."
    assert liverpool.max_players == 4
    assert (liverpool.decks, liverpool.jokers) == (2, 4)
    # "For each hand, the dealer gives each player 11 cards." Seven hands, the seventh
    # "Three Runs All Out (no discard ...)".
    assert liverpool.cards_dealt == (11,) * 7
    assert contracts_of(liverpool) == SEVEN_CONTRACTS
    # "Jokers and Aces are 15 points, Face cards (Jack, Queen, King) are 10 points, all others
    # are equal to their numerical value."
    assert points_of(liverpool, "JK A") == 30
    assert points_of(liverpool, "J Q K 10 4") == 10 + 10 + 10 + 10 + 4
    # "Sets are 3 or more of a kind"; "Runs are 4 or more in a row of the same suit. You can build
    # ace, two three, four or you can build jack, queen, king, ace, but not queen, king, ace, two."
    assert (liverpool.min_book, liverpool.min_run) == (3, 4)
    assert is_meld(liverpool, "AD 2D 3D 4D")
    assert is_meld(liverpool, "JD QD KD AD")
    assert not is_meld(liverpool, "QD KD AD 2D")
    # "Jokers are wild": no limit a meld, but never more jokers than natural cards.
    assert is_meld(liverpool, "8H 8S JK JK")
    # "Once you've gone down, you can no longer pick or buy cards off the discard pile."
    assert not liverpool.may_i_after_down


@pytest.mark.parametrize("variant", rules.VARIANTS, ids=lambda variant: variant.key)
def test_each_variant_round_trips_as_a_profile_stores_it(variant):
    stored = variant.house_rules.to_dict()
    assert HouseRules.from_dict(stored) == variant.house_rules


@pytest.mark.parametrize("variant", rules.VARIANTS, ids=lambda variant: variant.key)
def test_each_variants_contracts_go_down_with_the_pages_melds(variant):
    """Sets of three and runs of four meet every contract; the last, three runs of four."""
    melds = {
        Contract(2, 0): "8H 8S 8D | KC KD KS",
        Contract(1, 1): "8H 8S 8D | 4C 5C 6C 7C",
        Contract(0, 2): "4C 5C 6C 7C | 9H 10H JH QH",
        Contract(3, 0): "8H 8S 8D | KC KD KS | 5H 5S 5D",
        Contract(2, 1): "8H 8S 8D | KC KD KS | 4C 5C 6C 7C",
        Contract(1, 2): "8H 8S 8D | 4C 5C 6C 7C | 9H 10H JH QH",
        Contract(0, 3, True): "3H 4H 5H 6H | 8S 9S 10S JS | 2D 3D 4D 5D",
    }
    house_rules = variant.house_rules
    for number, contract in enumerate(house_rules.contracts, start=1):
        going_down = rules.parse_melds(melds[contract])
        assert rules.check_going_down(number, going_down, house_rules).ok, (number, contract)
