"""The engine's words as translatable messages (rules/messages.py): the English as the str, and
every sentence that reaches a person a Message whose words a catalogue can replace."""

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import Message
from rules.cards import RANKS, SUITS
from rules.messages import _, and_joined, capitalized, joined, ngettext_lazy

RULES = Path(rules.__file__).parent
MARKERS = {"_", "ngettext_lazy", "gettext_noop"}


def shouted(msgid: str) -> str:
    """A catalogue that translates every word: the msgid upper case, its placeholders kept."""
    return re.sub(r"[^{}]+(?=\{|$)", lambda part: part.group().upper(), msgid)


def shouted_plural(singular: str, plural: str, number: int) -> str:
    return shouted(singular if number == 1 else plural)


def assert_every_word_translated(message) -> None:
    """Through a catalogue that upper-cases every msgid, not one lower-case letter is left: no
    English word reached the sentence outside a msgid (card notation is upper case)."""
    assert isinstance(message, Message), f"not a Message: {message!r}"
    assert message.words() == str(message)
    said = message.words(shouted, shouted_plural)
    assert not re.search(r"[a-z]", said), said


SPANISH = {
    "{cards} is not a run: {why}": "{cards} no es una escalera: {why}",
    "a run needs at least {count} cards": "una escalera necesita al menos {count} cartas",
    "one joker": "un comodín",
    "{count} jokers": "{count} comodines",
    "{first} and {second}": "{first} y {second}",
    "no melds": "sin combinaciones",
}


def spanish(msgid: str) -> str:
    return SPANISH.get(msgid, msgid)


def spanish_plural(singular: str, plural: str, number: int) -> str:
    return spanish(singular if number == 1 else plural)


def test_a_message_is_its_english_and_keeps_its_msgid_and_parameters():
    message = _(
        "{cards} is not a run: {why}",
        cards="7H 9H",
        why=_("a run needs at least {count} cards", count=4),
    )
    assert message == "7H 9H is not a run: a run needs at least 4 cards"
    assert message.msgid == "{cards} is not a run: {why}"
    assert message.words(spanish, spanish_plural) == (
        "7H 9H no es una escalera: una escalera necesita al menos 4 cartas"
    )


@pytest.mark.parametrize(
    ("count", "english", "words"), [(1, "one joker", "un comodín"), (3, "3 jokers", "3 comodines")]
)
def test_a_count_chooses_the_plural_in_each_language(count, english, words):
    message = ngettext_lazy("one joker", "{count} jokers", count, count=count)
    assert message == english
    assert message.words(spanish, spanish_plural) == words


def test_joined_and_capitalized_messages_translate_each_part():
    parts = and_joined(["7H", "9H", "JK"])
    assert parts == "7H and 9H and JK"
    assert parts.words(spanish, spanish_plural) == "7H y 9H y JK"
    assert (
        joined(" | ", ["3S 4S 5S", _("no melds")]).words(spanish) == "3S 4S 5S | sin combinaciones"
    )
    assert capitalized(_("no melds")) == "No melds"
    assert capitalized(_("no melds")).words(spanish) == "Sin combinaciones"


def test_a_message_pickles_as_itself():
    import pickle

    message = rules.HouseRules().contract(2).name
    again = pickle.loads(pickle.dumps(message))
    assert again == message and again.words(spanish) == message.words(spanish)


# Where rules/ writes text that is no sentence for a translator: card and contract notation
# (docs/rules.md), kept alike in every language, and an internal error that is a bug.
NOTATION = {
    ("cards.py", "__str__"),  # 7H, JK=10H
    ("cards.py", "symbol"),  # 7♥, JK=10♥
    ("contracts.py", "line"),  # "1 book 1 run", as a contract is typed
    ("contracts.py", "parse"),  # reads "no discard" as typed
    ("going_down/verdicts.py", "_held_joker"),  # AssertionError: a bug, not a refusal
    ("melds.py", "_run_gap_reason"),  # the missing cards, 9H
    ("questions.py", "meld_sentence"),  # JK = 10H
    ("summary.py", "rules_summary"),  # the points, "K 10"
    ("variants.py", "<module>"),  # the sources' titles: "Bicycle Cards, Contract Rummy"
}


def _unmarked_text(path: Path) -> set[tuple[str, str]]:
    """(file, function) of each f-string, and each literal of two words or more, outside a
    marker's msgid and outside docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    marked, found = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in MARKERS:
            marked.update(id(arg) for arg in node.args)  # the msgids; parameters are checked
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            marked.add(id(body[0].value))  # a docstring
    parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        sentence = (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", node.value)
        )
        if id(node) in marked or not (isinstance(node, ast.JoinedStr) or sentence):
            continue
        function = node
        while function in parent and not isinstance(function, ast.FunctionDef):
            function = parent[function]
        name = function.name if isinstance(function, ast.FunctionDef) else "<module>"
        found.add((path.relative_to(RULES).as_posix(), name))
    return found


def test_no_sentence_in_rules_escapes_the_catalogue():
    """Every sentence rules/ writes is a msgid of a marker (rules/messages.py); the f-strings and
    sentence-like literals left are card and contract notation."""
    found = set()
    for path in sorted(RULES.rglob("*.py")):
        if path.name not in {"messages.py", "bench.py", "cli.py"}:  # the CLI and bench: developers'
            found |= _unmarked_text(path)
    # A module-level f-string would be found under "<module>" and so fail here too.
    assert found <= NOTATION, sorted(found - NOTATION)


CARDS = [rules.Card(rank, suit) for rank in RANKS for suit in SUITS] + [rules.Card("JK", None)]
HANDS = st.lists(st.sampled_from(CARDS), max_size=7)


@settings(max_examples=120, deadline=None)
@given(cards=HANDS, meld=st.lists(st.sampled_from(CARDS), min_size=3, max_size=5))
def test_every_meld_and_lay_off_reason_is_translated(cards, meld):
    for verdict in (
        rules.check_meld(cards, rules.HouseRules()),
        rules.check_lay_off(cards, meld, rules.HouseRules()),
    ):
        for reason in verdict.reasons:
            assert_every_word_translated(reason)


@settings(max_examples=80, deadline=None)
@given(cards=HANDS, contract=st.integers(0, 8), melds=st.booleans())
def test_every_going_down_reason_and_answer_is_translated(cards, contract, melds):
    house_rules = rules.HouseRules(jokers_per_meld=2, extra_melds_allowed=True)
    given_cards = [cards[:3], cards[3:]] if melds else cards
    for verdict in (
        rules.check_going_down(contract, given_cards, house_rules),
        rules.find_going_down(contract, cards, house_rules),
    ):
        for reason in verdict.reasons:
            assert_every_word_translated(reason)
    for question in rules.Question:
        answer = rules.answer_question(
            question, [cards], house_rules, contract=1, table_melds=[cards[:3]], target=0
        )
        assert_every_word_translated(answer.text)


SUMMARIES = [
    {},
    {"jokers": 0, "may_i_limit": 0, "may_i_penalty_cards": 0, "jokers_per_meld": 0},
    {"decks": 1, "jokers": 1, "max_players": 4, "may_i_limit": 1, "may_i_penalty_cards": 1},
    {"ace": "low", "book_suits_distinct": True, "extra_melds_allowed": True},
    {
        "ace": "high_or_low",
        "same_rank_books_banned": True,
        "same_suit_runs_must_be_separated": True,
    },
    {"joker_swap": "shift_to_end", "must_discard_to_go_out": True, "tie_break": "most_rounds_won"},
    {"joker_swap": "swap_from_hand", "may_i_after_down": True, "tie_break": "fewest_may_i"},
    {"stock_exhausted": "end_round", "shanghai_bonus": 10, "rummy_bonus": True},
    {"cards_dealt": [10, 10, 10, 12, 12, 12, 12], "shanghai_bonus": 1},
]


@pytest.mark.parametrize("values", SUMMARIES)
def test_every_summary_sentence_and_contract_name_is_translated(values):
    house_rules = rules.HouseRules.from_dict(values)
    for sentence in rules.rules_summary(house_rules):
        assert_every_word_translated(sentence)
    for contract in house_rules.contracts:
        assert_every_word_translated(contract.name)


REFUSED_RULES = [
    {"decks": 9},
    {"decks": "MANY"},
    {"book_suits_distinct": 1},
    {"min_players": 6, "max_players": 4},
    {"min_book": 5, "book_suits_distinct": True},
    {"contracts": []},
    {"contracts": [{"books": 5, "runs": 0}], "cards_dealt": [15]},
    {"contracts": [[1, 1]], "cards_dealt": [10, 10]},
    {"cards_dealt": [0, 10, 10, 10, 12, 12, 12]},
    {"points": {"JK": -1}},
    {"points": {"ZZ": 5}},
    {"max_players": 8, "decks": 1, "jokers": 0},
    {"COLOUR": "RED"},
]


@pytest.mark.parametrize("values", REFUSED_RULES)
def test_every_house_rules_refusal_is_translated(values):
    with pytest.raises(rules.RulesError) as refused:
        rules.HouseRules.from_dict(values)
    assert_every_word_translated(refused.value.args[0])


@pytest.mark.parametrize("text", ["7X", "ZH", "7", "JK=JK", "JK=1Z", "JKH", "♥"])
def test_every_card_refusal_is_translated(text):
    with pytest.raises(rules.CardError) as refused:
        rules.parse_cards(text)
    assert_every_word_translated(refused.value.args[0])


def test_every_turn_and_score_refusal_is_translated():
    no_may_i_after_down = rules.HouseRules(may_i_after_down=False)
    refusals = [
        rules.may_i_refusal(no_may_i_after_down, player="ANN", went_down=True, used=0, limit=3),
        rules.may_i_refusal(rules.HouseRules(), player="ANN", went_down=False, used=3, limit=3),
        rules.shanghai_claim_refusal(discarder="BO", anyone_down=False),
        rules.in_one_turn_refusal(player="ANN", went_down=True),
        rules.held_refusal(player="ANN", held=30, most_cards=12, contract=2),
        rules.points_refusal(player="ANN", points=0, most_cards=12),
        rules.points_refusal(player="ANN", points=1, most_cards=12),
        *rules.hand_problems([rules.parse_cards("7H 7H 7H JK JK JK JK JK")]),
        *rules.card_problems(rules.parse_cards("7H 7H 7H JK JK"), decks=1, jokers=1),
    ]
    for refusal in refusals:
        assert_every_word_translated(refusal)


def test_every_setting_label_help_and_choice_is_marked():
    """A setting's words are plain strs marked with gettext_noop, said where the form shows
    them (scorekeeper/forms/profiles.py): each one is a msgid of rules/settings.py."""
    tree = ast.parse((RULES / "settings.py").read_text(encoding="utf-8"))
    marked = {
        ast.literal_eval(node.args[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop"
    }
    for setting in rules.SETTINGS:
        for words in (setting.label, setting.help, *(label for _value, label in setting.choices)):
            assert words in marked
