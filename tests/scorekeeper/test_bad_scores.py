"""Bad score entries and corrections of a round: a clear message, and the round as it was
(scorekeeper/views/games.py: score and round_edit)."""

import pytest

from scorekeeper import services
from scorekeeper.models import Round
from tests.factories import HUGE, act, database_state, post_refused, score_data, seats, url

pytestmark = pytest.mark.django_db


def test_scores_before_anyone_went_out_are_refused(client, member, game):
    others = seats(game)[1:]
    post_refused(
        client,
        url("score", game),
        {"version": game.version, **{f"points_{seat.pk}": 10 for seat in others}},
        "Nobody has gone out yet",
    )


def test_scores_from_a_screen_whose_going_out_was_undone_are_stale(client, member, scoring):
    typed = score_data(scoring)
    act(services.action_undo, scoring)
    post_refused(
        client,
        url("score", scoring),
        typed,
        "On another screen a moment ago",
        "nothing was saved",
        status=(409,),
    )


def test_scores_for_a_game_that_is_over_are_refused(client, member, finished):
    post_refused(client, url("score", finished), {"version": finished.version}, "game is over")


BAD_SCORES = {
    "garbage cards": {"cards_1": "ZZ"},
    "a suit as a rank": {"cards_1": "7Q 8"},
    "markup": {"cards_1": "<script>alert(1)</script>"},
    "a card face": {"cards_1": "🂡"},
    "negative points": {"points_2": "-5"},
    "points over the limit": {"points_2": "10001"},
    "points beyond 64 bits": {"points_2": HUGE},
    "words for points": {"points_2": "ten"},
    "a fraction": {"points_2": "2.5"},
    "zero points": {"points_2": "0"},
    "a player left blank": {"points_2": ""},
    "everyone left blank": {"cards_1": "", "points_2": "", "cards_3": ""},
    "more cards than a hand holds": {"cards_1": "2 " * 30},
    "too much text": {"cards_1": "2 " * 150},
    "more jokers than the decks hold": {"cards_1": "JK " * 9},
    "cards and points both": {"points_1": "20"},
    "points no hand makes": {"points_2": "7"},
    "points more than a hand holds": {"points_2": "5000"},
}


@pytest.mark.parametrize("overrides", BAD_SCORES.values(), ids=BAD_SCORES.keys())
def test_bad_scores_are_refused_and_the_round_stays_open(
    client, member, scoring, overrides, htmx_headers
):
    post_refused(
        client, url("score", scoring), score_data(scoring, **overrides), headers=htmx_headers
    )
    assert Round.objects.get(game=scoring, number=1).finished_at is None


def test_the_valid_score_entry_used_above_is_accepted(client, member, scoring):
    """The baseline of the bad-score cases, so each of them fails for its own reason."""
    response = client.post(url("score", scoring), score_data(scoring))
    assert response.status_code == 302
    assert Round.objects.get(game=scoring, number=1).finished_at is not None


# Editing a round


@pytest.mark.parametrize("number", [0, 2, 3, 99, 2**40])
@pytest.mark.parametrize("method", ["get", "post"])
def test_editing_a_round_that_is_missing_or_unfinished_is_a_404(
    client, member, one_round_played, number, method
):
    game = one_round_played
    before = database_state()
    response = getattr(client, method)(url("round_edit", game, number), score_data(game))
    assert response.status_code == 404
    assert database_state() == before


@pytest.mark.parametrize(
    "overrides",
    [
        {"cards_1": "ZZ"},
        {"points_2": "-5"},
        {"points_2": HUGE},
        {"points_1": "", "cards_1": ""},
        {"points_2": "0"},
        {"cards_1": "JK " * 20},
    ],
    ids=["garbage", "negative", "huge", "blank", "zero", "too many"],
)
def test_bad_corrections_of_a_round_are_refused(client, member, one_round_played, overrides):
    game = one_round_played
    post_refused(client, url("round_edit", game, 1), score_data(game, **overrides))


def test_a_correction_that_changes_nothing_saves_nothing(client, member, one_round_played):
    game = one_round_played
    post_refused(
        client,
        url("round_edit", game, 1),
        score_data(game, cards_1="", points_1="10", points_2="20", cards_3="", points_3="30"),
        "Nothing changed",
    )
