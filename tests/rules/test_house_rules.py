"""House rules: defaults, validation, dict round trip, form settings and summary."""

import json
import re
from dataclasses import fields

import pytest

from rules import CONTRACTS, SETTINGS, Contract, HouseRules, RulesError, rules_summary


def test_seed_game_defaults():
    rules = HouseRules()
    assert (rules.min_players, rules.max_players, rules.decks, rules.jokers) == (3, 5, 2, 4)
    assert rules.cards_dealt == (11,) * 7
    assert rules.contracts == CONTRACTS
    assert (rules.min_book, rules.min_run, rules.ace, rules.jokers_per_meld) == (3, 4, "high", 1)
    assert rules.same_rank_books_banned and not rules.same_suit_runs_must_be_separated
    assert not rules.extra_melds_allowed and not rules.book_suits_distinct
    assert rules.joker_swap == "off" and rules.stock_exhausted == "reshuffle"
    assert not rules.must_discard_to_go_out
    assert (rules.may_i_limit, rules.may_i_penalty_cards, rules.may_i_after_down) == (2, 2, True)
    assert dict(rules.points) == {
        **{rank: 5 for rank in "234567"},
        **{rank: 10 for rank in ("8", "9", "10", "J", "Q", "K")},
        "A": 20,
        "JK": 50,
    }
    assert rules.tie_break == "shared" and rules.shanghai_bonus == 0 and not rules.rummy_bonus
    assert hash(rules) == hash(HouseRules())


@pytest.mark.parametrize(
    ("contract", "name"),
    [
        (CONTRACTS[0], "Two books"),
        (CONTRACTS[1], "One book, one run"),
        (CONTRACTS[2], "Two runs"),
        (CONTRACTS[3], "Three books"),
        (CONTRACTS[4], "Two books, one run"),
        (CONTRACTS[5], "One book, two runs"),
        (CONTRACTS[6], "Three runs, no discard"),
        (Contract(0, 1), "One run"),
    ],
)
def test_contract_names(contract, name):
    assert contract.name == name


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"min_book": 1}, "Shortest book must be at least 2"),
        ({"min_run": 2}, "Shortest run must be at least 3"),
        ({"min_run": 14}, "Shortest run must be at most 13"),
        ({"book_suits_distinct": True, "min_book": 5}, "different suits"),
        ({"contracts": []}, "cannot be empty"),
        ({"contracts": [Contract(0, 0)]}, "at least one book or run"),
        ({"cards_dealt": (11, 11)}, "one number per contract"),
        ({"points": {"A": -1}}, "Points for A"),
        ({"points": {"Z": 1}}, "unknown ranks"),
        ({"min_players": 6}, "fewest players cannot be more"),
        ({"max_players": 8, "decks": 1}, "too few to deal"),
        ({"ace": "sideways"}, "Aces in runs must be one of"),
        ({"joker_swap": "yes"}, "Joker exchange must be one of"),
        ({"tie_break": "coin"}, "Equal totals must be one of"),
        ({"stock_exhausted": "x"}, "When the stock runs out must be one of"),
        ({"jokers": -1}, "Jokers must be at least 0"),
        ({"decks": "two"}, "Decks must be a whole number"),
        ({"rummy_bonus": 1}, "must be on or off"),
        ({"cards_dealt": (2,) * 7}, "needs at least"),
    ],
)
def test_invalid_rules_are_refused(values, message):
    with pytest.raises(RulesError, match=message):
        HouseRules(**values)


def test_dict_round_trip_is_json():
    rules = HouseRules(
        ace="high_or_low", points={"A": 15}, contracts=(Contract(1, 1),) * 2, cards_dealt=11
    )
    data = json.loads(json.dumps(rules.to_dict()))
    assert HouseRules.from_dict(data) == rules


def test_from_dict_defaults_and_unknown_keys():
    assert HouseRules.from_dict({}) == HouseRules()
    assert HouseRules.from_dict({"contracts": [{"books": 2, "runs": 0}]}).cards_dealt == (11,)
    with pytest.raises(RulesError, match="Unknown house-rules setting: colour"):
        HouseRules.from_dict({"colour": "red"})
    with pytest.raises(RulesError):
        HouseRules.from_dict({"contracts": [{"books": 1, "wild": 2}]})
    with pytest.raises(RulesError):
        HouseRules.from_dict(["not", "a", "dict"])


def test_settings_describe_every_field():
    names = [setting.name for setting in SETTINGS]
    assert names == [item.name for item in fields(HouseRules)]
    for setting in SETTINGS:
        assert setting.label and setting.help
        assert setting.kind in {"int", "bool", "choice", "int_list", "contracts", "points"}
        if setting.kind == "choice":
            assert getattr(HouseRules(), setting.name) in dict(setting.choices)


def test_contract_lookup():
    assert HouseRules().contract(7) == Contract(0, 3, no_discard=True)
    with pytest.raises(RulesError, match="There is no contract 8"):
        HouseRules().contract(8)


def test_summary_sentences():
    summary = rules_summary(HouseRules())
    assert "Books are three or more cards of one rank, any suits." in summary
    assert any(
        s.startswith("Runs are four or more cards of one suit in sequence; aces are high")
        for s in summary
    )
    assert "An initial meld may not hold two books of the same rank." in summary
    changed = rules_summary(
        HouseRules(ace="high_or_low", joker_swap="swap_from_hand", shanghai_bonus=10)
    )
    assert any("high or low but never both" in s for s in changed)
    assert any("take the joker into their hand" in s for s in changed)
    assert all(s.endswith(".") for s in changed)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"may_i_limit": 10**20}, "May I? per round must be at most 5"),
        ({"points": {"JK": 5000}}, "Points for JK must be a whole number from 0 to 1000"),
    ],
)
def test_numbers_too_large_to_play_or_store_are_refused(changes, message):
    with pytest.raises(RulesError, match=re.escape(message)):
        HouseRules(**changes)


def test_most_cards_held_counts_deal_draw_may_i_and_claims():
    rules = HouseRules()
    assert rules.most_cards_held(1) == 11 + 1 + 2 * 3
    assert rules.most_cards_held(7, shanghai_claims=2) == 11 + 1 + 2 * 3 + 2
    assert HouseRules(may_i_limit=0, cards_dealt=12).most_cards_held(3) == 13
    with pytest.raises(RulesError, match="no contract 8"):
        rules.most_cards_held(8)


def test_most_cards_left_counts_deal_the_may_is_called_and_the_discards_claimed():
    rules = HouseRules()
    assert rules.most_cards_left(1) == 11
    assert rules.most_cards_left(2, may_i_used=2) == 11 + 2 * 3
    assert rules.most_cards_left(7, may_i_used=1, discards_claimed=2) == 11 + 3 + 2
    dealt = HouseRules(cards_dealt=[6, 8], contracts=[Contract(1, 0)] * 2, may_i_penalty_cards=1)
    assert dealt.most_cards_left(2, may_i_used=1) == 8 + 2
    with pytest.raises(RulesError, match="no contract 8"):
        rules.most_cards_left(8)


@pytest.mark.parametrize(
    ("number", "may_i_used", "shanghai_claims", "cards_down", "usually"),
    [
        (1, 0, 0, 0, 11),  # nothing happened: the deal
        (2, 2, 0, 0, 11 + 2 * 3),  # two May I?s, each the discard and two penalty cards
        (3, 0, 1, 0, 10),  # a Shanghai claim gave a card of the hand to the discarder
        (4, 1, 0, 7, 11 + 3 - 7),  # went down with seven cards
        (7, 0, 0, 12, 0),  # never fewer than none
    ],
)
def test_the_cards_usually_left_are_the_deal_and_may_is_less_what_went_down(
    number, may_i_used, shanghai_claims, cards_down, usually
):
    held = HouseRules().cards_left_usually(
        number, may_i_used=may_i_used, shanghai_claims=shanghai_claims, cards_down=cards_down
    )
    assert held == usually


def test_most_cards_in_meld_is_a_whole_run_or_every_copy_of_a_rank():
    assert HouseRules().most_cards_in_meld == 13
    assert HouseRules(decks=3, jokers_per_meld=2).most_cards_in_meld == 14


@pytest.mark.parametrize(
    ("bonus", "words"),
    [(1, "takes 1 point off the claimant."), (10, "takes 10 points off the claimant.")],
)
def test_the_summary_says_a_shanghai_bonus_in_the_right_number(bonus, words):
    assert any(line.endswith(words) for line in rules_summary(HouseRules(shanghai_bonus=bonus)))


def test_the_summary_says_what_a_book_joker_stands_for():
    assert any("ordinary lay-off" in line for line in rules_summary(HouseRules()))
    distinct = rules_summary(HouseRules(book_suits_distinct=True, extra_melds_allowed=True))
    assert any("a suit the book lacks" in line for line in distinct)
    assert any("always exactly its melds" in line for line in distinct)


@pytest.mark.parametrize(
    ("text", "contract"),
    [
        ("2 books", Contract(2, 0)),
        ("1 book 1 run", Contract(1, 1)),
        ("3 runs no discard", Contract(0, 3, True)),
        ("1b2r", Contract(1, 2)),
        ("3r!", Contract(0, 3, True)),
    ],
)
def test_a_contract_reads_as_players_type_it_and_writes_back(text, contract):
    assert Contract.parse(text) == contract
    assert Contract.parse(contract.line) == contract


@pytest.mark.parametrize("text", ["banana", "0 books", "² books", "two books", "2 books and a run"])
def test_an_unreadable_contract_is_refused_naming_it(text):
    with pytest.raises(RulesError, match="is not a contract"):
        Contract.parse(text)


# What a real table can be: no form, import or API can store rules nobody could play.
UNPLAYABLE = [
    ({"min_players": 1}, "Fewest players must be at least 2"),
    ({"max_players": 9, "decks": 4}, "Most players must be at most 8"),
    ({"decks": 5}, "Decks must be at most 4"),
    ({"jokers": 9}, "Jokers must be at most 8"),
    ({"min_book": 9, "decks": 4}, "Shortest book must be at most 8"),
    ({"jokers_per_meld": 5}, "Jokers per meld must be at most 4"),
    ({"may_i_limit": 6}, "May I? per round must be at most 5"),
    ({"may_i_penalty_cards": 4}, "May I? penalty cards must be at most 3"),
    ({"shanghai_bonus": 1001}, "Shanghai bonus must be at most 1000"),
    ({"cards_dealt": 16}, "Cards dealt for contract 1 can be at most 15"),
    ({"contracts": [Contract(1, 0)] * 11}, "at most 10 contracts; these rules have 11"),
    ({"contracts": [Contract(3, 2)], "cards_dealt": 15}, "asks for 5 melds; a contract can ask"),
    (
        {"cards_dealt": 15, "may_i_limit": 3, "may_i_penalty_cards": 3},
        "A player could hold 28 cards",
    ),
]


@pytest.mark.parametrize(("changes", "message"), UNPLAYABLE)
def test_numbers_beyond_a_real_table_are_refused(changes, message):
    with pytest.raises(RulesError, match=re.escape(message)):
        HouseRules(**changes)
    with pytest.raises(RulesError, match=re.escape(message)):  # as an import reads them
        HouseRules.from_dict(changes)


def test_the_largest_real_table_is_accepted():
    rules = HouseRules(
        min_players=2,
        max_players=8,
        decks=4,
        jokers=8,
        cards_dealt=15,
        contracts=[Contract(2, 2)] * 10,
        may_i_limit=2,
        may_i_penalty_cards=3,
        jokers_per_meld=4,
    )
    assert rules.most_cards_held(10) == 24
