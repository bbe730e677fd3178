"""The seasons pages' charts: a player's final totals and rating, and wins per player."""

import html

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.management.commands.bench_standings import club_seed
from scorekeeper.selectors import standings
from tests.factories import make_game, make_user, play_round

pytestmark = pytest.mark.django_db


def _finish(game, went_out: int):
    for _ in range(7):
        play_round(game, went_out=went_out, points=[10, 25])


@pytest.fixture
def first(client):
    """Two finished tables of the same three players (seat 0, then seat 1 wins), a member in."""
    game = make_game(players=3)
    _finish(game, went_out=0)
    again = make_game(game.club, seated=[seat.player for seat in game.seats.all()])
    _finish(again, went_out=1)
    client.force_login(game.club.memberships.get().user)
    return game


def test_a_player_page_charts_final_totals_and_rating(client, first):
    player = first.seats.get(position=0).player
    page = client.get(player.get_absolute_url()).content.decode()
    assert page.count('<svg class="chart-svg"') == 2
    assert '<title id="player-0-title">Final totals</title>' in page
    assert '<title id="player-1-title">Rating</title>' in page
    assert "final total at each of 2 finished tables" in page
    assert "The last" not in page  # every table is charted
    partial = client.get(player.get_absolute_url(), headers={"HX-Request": "true"})
    assert partial.content.decode().count('<svg class="chart-svg"') == 2


def test_a_long_history_is_charted_over_its_last_tables_and_the_page_says_so(client):
    user = make_user()
    games = standings.CHART_TABLES + 3
    player = club_seed(games=games, user=user, players=5).players.first()
    client.force_login(user)
    page = html.unescape(client.get(player.get_absolute_url()).content.decode())
    assert f"The last {standings.CHART_TABLES} of {games} tables." in page
    tables = f"of the last {standings.CHART_TABLES} of {games} finished tables, oldest first"
    assert f"final total at each {tables}" in page
    assert f"rating after each {tables}" in page
    assert page.count("<circle") == 2 * standings.CHART_TABLES


def test_a_player_without_finished_tables_has_no_chart(client, first):
    newcomer = make_game(first.club, players=3).seats.first().player
    page = client.get(newcomer.get_absolute_url()).content.decode()
    assert "chart-svg" not in page


def test_standings_chart_wins_per_player(client, first):
    url = reverse("club_standings", args=[first.club.pk])
    page = client.get(url).content.decode()
    assert page.count('<svg class="chart-svg"') == 1
    assert '<title id="wins-0-title">Wins per player</title>' in page
    assert page.count("<rect") == 3
    partial = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<section id="standings">')
    assert "Wins per player" in partial


def test_standings_offer_their_scores_as_csv(client, first):
    page = client.get(reverse("club_standings", args=[first.club.pk])).content.decode()
    assert reverse("club_export_csv", args=[first.club.pk]) in page
    page = client.get(first.season.get_absolute_url()).content.decode()
    assert reverse("season_export_csv", args=[first.club.pk, first.season.pk]) in page


def test_shared_standings_show_the_chart_without_an_account(client, first):
    season = services.season_share(user=first.season.club.owner(), season=first.season)
    client.logout()
    page = client.get(reverse("shared_standings", args=[season.share_token])).content.decode()
    assert "Wins per player" in page
    assert "export.csv" not in page  # the scores download needs an account
