"""Questions asked of the meld checker, at a table or on their own
(scorekeeper/services/checks.py)."""

import pytest

import rules
from scorekeeper import services
from scorekeeper.models import TableMeld
from tests.factories import go_down, make_game, play_round, record_check, seats

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rounds_played", [1, 7], ids=["next contract", "game over"])
def test_a_check_about_a_round_scored_meanwhile_is_refused_and_not_kept(rounds_played):
    game = make_game(players=3)
    asked_about = game.rounds.get(number=1)
    for _ in range(rounds_played):
        play_round(game)
    with pytest.raises(services.ActionRefused):
        record_check(game, asked_about)
    assert game.checks.count() == 0


def test_a_question_at_a_table_is_answered_by_the_rules_engine_and_kept():
    game = make_game(players=3)
    round_ = game.rounds.get()
    answer = services.check_ask(
        game=game,
        round_=round_,
        question=rules.Question.GOING_DOWN,
        cards=rules.parse_melds("8H 8S 8D | 9H 10H JH QH"),
        user=game.created_by,
    )
    assert not answer.ok
    check = game.checks.get()
    assert (check.question, check.cards, check.ok) == ("down", "8H 8S 8D 9H 10H JH QH", False)
    assert check.answer == answer.text
    assert "needs 2 books" in check.answer
    assert check.round == round_
    assert check.get_question_display() == "Can I go down?"


def test_a_lay_off_question_at_a_table_names_the_meld_on_the_table():
    game = make_game(players=3)
    go_down(game, seats(game)[0], "7H 7S 7D | 9C 9H 9S")
    melds = list(TableMeld.objects.order_by("pk"))
    answer = services.check_ask(
        game=game,
        round_=game.rounds.get(),
        question=rules.Question.LAY_OFF,
        cards=rules.parse_melds("9D"),
        melds=melds,
        target=1,
        user=game.created_by,
    )
    assert answer.ok
    assert game.checks.get().target == melds[1]


def test_a_question_asked_on_its_own_is_answered_under_the_rules_given_and_not_kept():
    game = make_game(players=3)
    short_books = rules.HouseRules(min_book=2)
    answer = services.check_ask(
        question=rules.Question.MELD,
        cards=rules.parse_melds("8H 8S"),
        house_rules=short_books,
        user=game.created_by,
    )
    assert answer.ok
    answer = services.check_ask(
        question=rules.Question.LAY_OFF,
        cards=rules.parse_melds("9D"),
        table_melds=rules.parse_melds("9C 9H 9S"),
        target=0,
        user=game.created_by,
    )
    assert answer.ok
    assert game.checks.count() == 0
