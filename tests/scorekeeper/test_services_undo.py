"""Undo gives back exactly the table as it was (scorekeeper/services/undo.py)."""

import pytest

import rules
from scorekeeper import selectors, services
from scorekeeper.models import Round
from tests.factories import hand_of, make_game, play_round, record_check, seats

pytestmark = pytest.mark.django_db


def test_undo_of_a_saved_round_reopens_its_scoring():
    game = make_game(players=3)
    play_round(game)
    services.action_undo(game=game, version=game.version, user=game.created_by)
    board = selectors.game_board(game)
    assert board.current.number == 1
    assert board.scoring
    assert not Round.objects.filter(game=game, number=2).exists()


def test_undo_with_nothing_to_undo_is_refused():
    game = make_game()
    with pytest.raises(services.ActionRefused, match="nothing to undo"):
        services.action_undo(game=game, version=game.version, user=game.created_by)


def test_undo_of_went_out_keeps_an_earlier_went_down():
    game = make_game()
    ann = seats(game)[0]
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=game.created_by)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=game.created_by)
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert hand_of(game, ann).went_down
    assert not selectors.game_board(game).scoring


def test_undo_of_a_round_save_keeps_the_next_rounds_checks():
    game = make_game(players=3)
    play_round(game)
    record_check(game, game.rounds.get(number=2))
    with pytest.raises(services.ActionRefused, match="edit its scores"):
        services.action_undo(game=game, version=game.version, user=game.created_by)
    assert selectors.game_board(game).current.number == 2
    assert game.checks.count() == 1


def test_undo_of_going_out_in_one_turn_forgets_the_turn(bonus_game):
    game = bonus_game
    ann = seats(game)[0]
    services.round_record_went_out(
        game=game, version=game.version, seat=ann, rummy=True, user=game.created_by
    )
    assert game.rounds.get().rummy
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert not game.rounds.get().rummy


def test_undo_of_recorded_melds_keeps_an_earlier_went_down():
    game = make_game(players=3)
    ann = seats(game)[0]
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=game.created_by)
    melds = rules.parse_melds("8H 8S 8D | KC KD KS")
    services.melds_record(
        game=game, version=game.version, seat=ann, melds=melds, user=game.created_by
    )
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert hand_of(game, ann).went_down
    assert not game.rounds.get().melds.exists()
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert not hand_of(game, ann).went_down
