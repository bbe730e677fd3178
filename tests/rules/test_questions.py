"""The meld checker's questions, answered in sentences."""

import pytest

from rules import Contract, HouseRules, Question, answer_question, most_cards_asked, parse_melds

TABLE = [parse_melds("5H 6H 7H 8H")[0], parse_melds("KC KD KS")[0]]


@pytest.mark.parametrize(
    ("question", "cards", "target", "ok", "words"),
    [
        ("meld", "7H 8H 9H JK", None, True, "is a run (JK = "),
        ("meld", "AH 2H 3H 4H", None, False, "aces are high only"),
        ("down", "8H 8S 8D | KC KD KH", None, True, "is a book"),
        ("down", "8H 8S 8D KC KD KH", None, True, "is a book"),
        ("down", "8H 8S 8D | 9H 10H JH QH", None, False, "needs 2 books"),
        ("layoff", "9H", 0, True, "5H 6H 7H 8H 9H is a run"),
        ("layoff", "9H", None, False, "Pick the meld"),
        ("layoff", "9H", 5, False, "Pick the meld"),
        ("shanghai", "KH", None, True, "could be laid off on 1 meld"),
        ("shanghai", "2C", None, False, "fits no meld"),
        ("shanghai", "KH 4H", None, False, "the one card that was discarded"),
        ("hint", "8H 8S 8D 4C KC KD KS", None, True, ""),
    ],
)
def test_each_question_is_answered_with_reasons(question, cards, target, ok, words):
    answer = answer_question(
        question, parse_melds(cards), HouseRules(), table_melds=TABLE, target=target
    )
    assert answer.ok is ok
    assert words in " ".join(answer.reasons)
    assert answer.text.startswith("Yes. " if ok else "No. ")


def test_a_shanghai_answer_names_the_melds_it_fits():
    answer = answer_question("shanghai", parse_melds("4H"), HouseRules(), table_melds=TABLE)
    assert answer.targets == [0]


def test_a_hint_keeps_what_it_does_not_lay_down():
    answer = answer_question("hint", parse_melds("8H 8S 8D 4C KC KD KS"), HouseRules())
    assert [str(card) for card in answer.leftover] == ["4C"]


def test_each_question_has_a_code_kept_with_it_and_the_words_a_player_asks_it_in():
    assert [(question.value, question.label) for question in Question] == [
        ("meld", "Is this a book or a run?"),
        ("down", "Can I go down?"),
        ("layoff", "Can I lay this off?"),
        ("shanghai", "Is this discard a Shanghai?"),
        ("hint", "What could I lay down?"),
    ]
    assert Question("down") is Question.GOING_DOWN
    assert Question.LAY_OFF == "layoff"


def test_a_question_is_about_at_most_what_a_hand_holds_or_the_longest_meld():
    rules = HouseRules()
    assert most_cards_asked(Question.HINT, rules, 1) == 11 + 1 + 2 * 3
    assert most_cards_asked(Question.GOING_DOWN, rules, 1, shanghai_claims=2) == 20
    short = HouseRules(contracts=[Contract(2, 0)], cards_dealt=[8], may_i_limit=0)
    assert most_cards_asked(Question.GOING_DOWN, short, 1) == 9
    assert most_cards_asked(Question.MELD, short, 1) == short.most_cards_in_meld == 13


SEVEN = "3H 4H 5H 6H | 7S 8S 9S 10S | JC QC KC AC"


@pytest.mark.parametrize("question", [Question.GOING_DOWN, Question.HINT])
def test_a_going_down_in_a_no_discard_contract_goes_out(question):
    answer = answer_question(question, parse_melds(SEVEN), HouseRules(), contract=7)
    assert answer.ok and answer.goes_out
    assert answer.reasons[-1] == (
        "Contract 7 has no discard: going down uses the whole hand, so this hand goes out."
    )


@pytest.mark.parametrize(
    ("question", "cards", "contract"),
    [
        (Question.GOING_DOWN, "8H 8S 8D | KC KD KH", 1),  # a discard contract: it goes on
        (Question.GOING_DOWN, SEVEN + " 2D", 7),  # not a going-down at all
        (Question.MELD, "3H 4H 5H 6H", 7),  # a meld is not a going-down
    ],
)
def test_anything_else_does_not_go_out(question, cards, contract):
    answer = answer_question(question, parse_melds(cards), HouseRules(), contract=contract)
    assert not answer.goes_out
    assert "goes out" not in " ".join(answer.reasons)


def test_a_no_discard_contract_is_a_house_rule_not_contract_7():
    no_discard_first = HouseRules(
        contracts=[Contract(0, 3, no_discard=True), Contract(2, 0)], cards_dealt=[12, 10]
    )
    answer = answer_question(Question.GOING_DOWN, parse_melds(SEVEN), no_discard_first, contract=1)
    assert answer.goes_out
    assert "Contract 1 has no discard" in answer.reasons[-1]
