"""Scores as CSV: one row per player per finished round, readable by a spreadsheet."""

import csv
import io

import pytest

from scorekeeper import services
from scorekeeper.models import Player
from scorekeeper.selectors import score_sheet
from tests.factories import make_club, make_game, play_round

pytestmark = pytest.mark.django_db


def _rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_one_row_per_player_per_finished_round():
    game = make_game(players=3)
    play_round(game, went_out=1, points=[15, 40])
    play_round(game, went_out=0, points=[5, 10])

    rows = _rows(score_sheet.score_sheet_csv(game.club))

    assert len(rows) == 6  # the third contract is being played: not in the sheet
    assert list(rows[0]) == score_sheet.COLUMNS
    first = [row for row in rows if row["contract"] == "1"]
    names = [seat.player.name for seat in game.seats.order_by("position")]
    assert [(row["player"], row["points"], row["went out"]) for row in first] == [
        (names[0], "15", "no"),
        (names[1], "0", "yes"),
        (names[2], "40", "no"),
    ]
    assert {row["table"] for row in rows} == {str(game)}
    assert {row["season"] for row in rows} == {game.season.name}


def test_a_season_sheet_holds_only_that_seasons_tables():
    club = make_club()
    winter = services.season_create(
        user=club.owner(), club=club, name="Winter", starts_on="2025-10-01"
    )
    play_round(make_game(club, players=3))
    winter_game = make_game(club, players=4)
    winter_game.season = winter
    winter_game.save()
    play_round(winter_game)

    rows = _rows(score_sheet.score_sheet_csv(club, winter))

    assert len(rows) == 4
    assert {row["table"] for row in rows} == {str(winter_game)}
    assert len(_rows(score_sheet.score_sheet_csv(club))) == 7


def test_a_name_a_spreadsheet_would_run_as_a_formula_stays_text():
    game = make_game(players=3)
    first, second, _ = (seat.player for seat in game.seats.order_by("position"))
    Player.objects.filter(pk=first.pk).update(name="=HYPERLINK(1)")
    Player.objects.filter(pk=second.pk).update(name="Zoë")
    play_round(game, went_out=2, points=[10, 20])

    rows = _rows(score_sheet.score_sheet_csv(game.club))

    assert {row["player"] for row in rows} >= {"'=HYPERLINK(1)", "Zoë"}


def test_the_sheet_takes_five_queries_however_many_tables(django_assert_num_queries):
    club = make_club()
    for _ in range(3):
        game = make_game(club, players=4)
        play_round(game)
        play_round(game)
    with django_assert_num_queries(5):
        rows = score_sheet.score_rows(club)
    assert len(rows) == 3 * 2 * 4
