"""Questions asked of the meld checker at a table (scorekeeper/services/checks.py)."""

import pytest

from scorekeeper import services
from tests.factories import make_game, play_round, record_check

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
