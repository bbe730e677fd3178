import dataclasses
import html
import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services
from scorekeeper.management.commands.bench_standings import club_seed
from scorekeeper.models import Game, Season
from scorekeeper.selectors import standings
from tests.factories import (
    built_once,
    finish_game,
    make_club,
    make_game,
    make_player,
    make_user,
    play_round,
    run_tasks,
)

# slow: finished tables played through the services.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture(scope="module")
def built_table(django_db_setup, django_db_blocker):
    """The finished table's id, built once for the module's tests."""
    with built_once(django_db_blocker):
        club = make_club()
        players = [make_player(club, name) for name in ["Ann", "Ben", "Cat", "Dan"]]
        yield finish_game(make_game(club, seated=players)).pk


@pytest.fixture
def table(built_table):
    """A finished four-player table: Ann 0, Ben 70, Cat 140, Dan 210; read afresh for the test
    (what an earlier test changed was undone in the database)."""
    return Game.objects.get(pk=built_table)


# Pinned query counts: session, user, then the page's own (season, no recount waiting, figures,
# ratings, seasons).
@pytest.mark.parametrize("games", [1, 50])
def test_standings_run_a_fixed_number_of_queries(client, django_assert_num_queries, games):
    user = make_user()
    club = club_seed(games=games, user=user)
    url = club.seasons.get().get_absolute_url()
    client.force_login(user)
    with django_assert_num_queries(7):
        response = client.get(url)
    lines = response.context["standings"].lines
    assert sum(line.games for line in lines) == 5 * games
    assert sum(line.wins for line in lines) >= games


# Five players at every table: at 120 tables each has more than the chart shows.
@pytest.mark.parametrize("games", [1, 120])
def test_a_player_page_runs_a_fixed_number_of_queries(client, django_assert_num_queries, games):
    user = make_user()
    club = club_seed(games=games, user=user, players=5)
    player = club.players.first()
    client.force_login(user)
    # session, user, player, seasons, figures, chart, head to head, points left, last games
    with django_assert_num_queries(9):
        response = client.get(player.get_absolute_url())
    record = response.context["record"]
    assert record.games == games
    assert len(record.series) == min(games, standings.CHART_TABLES)
    assert sum(rival.games for rival in record.rivals) == 4 * games
    assert [contract["rounds"] for contract in record.contracts] == [games] * 7


@pytest.mark.parametrize("games", [1, 50])
def test_the_club_page_runs_a_fixed_number_of_queries(client, django_assert_num_queries, games):
    user = make_user()
    club = club_seed(games=games, user=user)
    client.force_login(user)
    # session, user, club, players, seasons, current season, profiles, count, tables, seats,
    # results, rounds, and no recount waiting
    with django_assert_num_queries(13):
        response = client.get(club.get_absolute_url(), {"page": 3})
    page = response.context["games"]
    assert page.paginator.count == games
    assert len(page) == (games - 40 if games == 50 else games)


def test_the_club_page_lists_tables_newest_first_with_winners_totals_or_progress(client, table):
    club = table.club
    later = make_game(club, seated=[seat.player for seat in table.seats.all()][:3])
    later.refresh_from_db()
    finish_game(later, [(1, [10, 10])] * 7)  # Ann and Cat share second place behind Ben
    playing = make_game(club, players=3)
    for _ in range(3):
        play_round(playing, points=[5, 5])
    client.force_login(club.memberships.get().user)
    page = text(client.get(club.get_absolute_url()))
    rows = page.split("<tbody>")[-1].split("</tr>")
    assert "contract 4 of 7" in rows[0]
    assert "<strong>Ben</strong>" in rows[1] and "Ann 70 · Cat 70" in rows[1]
    assert "<strong>Ann</strong>" in rows[2] and "Ann 0 · Ben 70 · Cat 140 · Dan 210" in rows[2]


def names(response) -> list[str]:
    return [line.player.name for line in response.context["standings"].lines]


def test_standings_sort_by_a_column_both_ways_and_state_the_tie_break(client, table):
    club = table.club
    client.force_login(club.memberships.get().user)
    url = reverse("club_standings", args=[club.pk])
    response = client.get(url)
    assert names(response) == ["Ann", "Ben", "Cat", "Dan"]
    assert "Placed by win rate" in text(response)
    assert names(client.get(url, {"sort": "average"})) == ["Ann", "Ben", "Cat", "Dan"]
    assert names(client.get(url, {"sort": "-average"})) == ["Dan", "Cat", "Ben", "Ann"]
    assert names(client.get(url, {"sort": "player"})) == ["Ann", "Ben", "Cat", "Dan"]
    # The sorted column's heading links to the other direction, keeping the filter, and tells a
    # screen reader which way it is sorted.
    page = client.get(url, {"sort": "average"}).content.decode()
    assert f'href="{url}?sort=-average&amp;min_games=1"' in page
    assert page.count("aria-sort=") == 1 and 'aria-sort="ascending"' in page
    assert 'aria-sort="descending"' in client.get(url, {"sort": "-average"}).content.decode()
    # An unknown column sorts by place; nothing breaks.
    assert names(client.get(url, {"sort": "password"})) == ["Ann", "Ben", "Cat", "Dan"]


def headings(page: str, hidden: bool) -> list[str]:
    """The standings' column headings shown at once (hidden False) or only on asking."""
    found = re.findall(r'<th scope="col"( class="extra")?[^>]*><a [^>]*>([^<]+)</a>', page)
    return [label for extra, label in found if bool(extra) == hidden]


def test_standings_show_the_main_columns_and_the_rest_on_asking(client, table):
    client.force_login(table.created_by)
    url = reverse("club_standings", args=[table.club.pk])
    page = text(client.get(url))
    assert headings(page, hidden=False) == [
        "Place",
        "Player",
        "Games",
        "Wins",
        "Win rate",
        "Average final total",
        "Rating",
    ]
    assert headings(page, hidden=True) == [
        "Points per round",
        "Best game",
        "Rounds won",
        "Shanghai claims",
        "May I?s used",
    ]
    row = page.split("<tbody>")[1].split("</tr>")[0]
    assert row.count('<td class="extra">') == 5
    # One tap away: a switch outside the fragment a sort replaces, off until asked.
    assert '<input type="checkbox" id="more-columns" role="switch">' in page
    assert 'id="more-columns"' not in text(client.get(url, headers={"HX-Request": "true"}))


def test_standings_sorted_by_a_column_shown_on_asking_show_it(client, table):
    client.force_login(table.created_by)
    page = text(client.get(reverse("club_standings", args=[table.club.pk]), {"sort": "-best"}))
    assert '<input type="checkbox" id="more-columns" role="switch" checked>' in page


def rating_cells(page: str) -> dict[str, str]:
    """The rating column's text of each player's row, by name."""
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")[:-1]
    cells = {}
    for row in rows:
        name = re.search(r"<a href=\"/players/\d+/[^\"]*\">([^<]+)</a>", row)[1]
        cells[name] = re.sub(
            r"\s+", " ", re.sub(r"<[^>]+>", "", "<td" + row.split("<td")[-1])
        ).strip()
    return cells


@pytest.fixture
def seasons_played():
    """Spring: Ann, Ben and Cat finish three tables. Summer: Ann, Ben and Dan finish two."""
    club = make_club()
    ann, ben, cat, dan = (make_player(club, name) for name in ["Ann", "Ben", "Cat", "Dan"])
    spring = club.seasons.get()
    summer = services.season_create(
        club=club, user=club.owner(), name="Summer", starts_on=spring.starts_on
    )
    for _ in range(3):
        finish_game(make_game(club, seated=[ann, ben, cat], season=spring))
    for _ in range(2):
        finish_game(make_game(club, seated=[ann, ben, dan], season=summer))
    return club, spring, summer


def test_a_player_is_new_until_five_tables_then_rated(client, seasons_played):
    club, spring, summer = seasons_played
    client.force_login(club.owner())
    cells = rating_cells(text(client.get(reverse("club_standings", args=[club.pk]))))
    assert cells["Cat"] == "new 3 of 5 tables"
    assert cells["Dan"] == "new 2 of 5 tables"
    for rated in ["Ann", "Ben"]:
        assert re.fullmatch(r"-?\d+\.\d ±\d+\.\d [+-]\d+\.\d", cells[rated]), cells[rated]


def test_a_seasons_rating_counts_the_tables_up_to_its_last_one(client, seasons_played):
    club, spring, summer = seasons_played
    client.force_login(club.owner())
    # Ann's rating at the end of spring counted three tables; at the end of summer, five.
    assert rating_cells(text(client.get(spring.get_absolute_url())))["Ann"] == "new 3 of 5 tables"
    assert rating_cells(text(client.get(summer.get_absolute_url())))["Ann"] != "new 5 of 5 tables"
    assert "new" not in rating_cells(text(client.get(summer.get_absolute_url())))["Ann"]


def test_the_rating_is_explained_one_tap_away(client, table):
    client.force_login(table.created_by)
    page = text(client.get(reverse("club_standings", args=[table.club.pk])))
    details = page.split('<details class="rating-help" id="rating-help">')[1].split("</details>")[0]
    assert "<summary>What the rating means</summary>" in details
    assert "once they have played 5 tables: until then the standings say <strong>new</strong>" in (
        details
    )
    assert "Plackett-Luce" not in page.split("<details")[0]


def test_the_minimum_games_filter_keeps_a_lucky_single_game_off_the_top(client, table):
    club = table.club
    ann, ben, cat, dan = (seat.player for seat in table.seats.all())
    lucky = make_player(club, "Lucky")
    finish_game(make_game(club, seated=[lucky, ben, cat]))  # Lucky goes out of every round
    finish_game(make_game(club, seated=[ben, ann, dan]))
    client.force_login(club.memberships.get().user)
    url = reverse("club_standings", args=[club.pk])
    lines = client.get(url).context["standings"].lines
    assert [(line.player.name, line.place) for line in lines[:2]] == [("Lucky", 1), ("Ann", 2)]
    response = client.get(url, {"min_games": 2})
    assert [line.player.name for line in response.context["standings"].lines] == [
        "Ann",
        "Ben",
        "Cat",
        "Dan",
    ]
    assert "1 player with fewer than 2 games not shown" in text(response)


def test_unreadable_standings_options_get_a_message_and_the_defaults(client, table):
    client.force_login(table.created_by)
    url = reverse("club_standings", args=[table.club.pk])
    for value in ["abc", "-3", "99999999999999999999", "²"]:
        response = client.get(url, {"min_games": value, "sort": "x" * 5000})
        assert response.status_code == 200
        assert len(response.context["standings"].lines) == 4
    assert "Enter a whole number of games" in text(client.get(url, {"min_games": "abc"}))


def test_standings_for_htmx_are_the_table_only(client, table):
    client.force_login(table.created_by)
    url = reverse("club_standings", args=[table.club.pk])
    response = client.get(url, {"sort": "wins"}, headers={"HX-Request": "true"})
    assert response.content.decode().lstrip().startswith('<section id="standings">')
    assert "<html" not in response.content.decode()
    assert "<html" in client.get(url).content.decode()


@pytest.mark.parametrize("shared", [False, True], ids=["member", "shared link"])
def test_standings_being_recounted_say_so_and_poll_until_they_are_there(client, table, shared):
    club = table.club
    services.recount_queue(club=club, user=club.owner())
    if shared:
        token = services.season_share(season=table.season, user=club.owner()).share_token
        url = reverse("shared_standings", args=[token])
    else:
        client.force_login(table.created_by)
        url = reverse("club_standings", args=[club.pk])

    page = text(client.get(url, {"sort": "wins", "min_games": 1}))

    assert "The standings are being recounted…" in page
    assert 'class="standings"' not in page  # no table of ratings half recounted
    assert (
        f'hx-get="{url}?sort=wins&amp;min_games=1"'
        in client.get(url, {"sort": "wins", "min_games": 1}).content.decode()
    )
    assert 'name="sort" value="wins"' in page
    poll = client.get(url, {"sort": "wins", "min_games": 1}, headers={"HX-Request": "true"})
    assert poll.status_code == 204

    run_tasks()

    poll = client.get(url, {"sort": "wins", "min_games": 1}, headers={"HX-Request": "true"})
    assert poll.status_code == 200
    assert poll.content.decode().lstrip().startswith('<section id="standings">')
    assert "Ann" in text(poll) and "being recounted" not in text(poll)


def test_a_season_shows_only_its_own_tables(client, table):
    club = table.club
    other = services.season_create(
        user=club.owner(), club=club, name="Spring", starts_on=date(2020, 1, 1)
    )
    finish_game(make_game(club, players=3, season=other))
    client.force_login(table.created_by)
    response = client.get(other.get_absolute_url())
    assert len(response.context["standings"].lines) == 3
    response = client.get(table.season.get_absolute_url())
    assert [line.player.name for line in response.context["standings"].lines] == [
        "Ann",
        "Ben",
        "Cat",
        "Dan",
    ]
    all_time = client.get(reverse("club_standings", args=[club.pk]))
    assert len(all_time.context["standings"].lines) == 7


def test_a_player_page_shows_record_rivals_and_costliest_contract(client, table):
    ann, ben, cat, dan = (seat.player for seat in table.seats.all())
    client.force_login(table.created_by)
    response = client.get(ben.get_absolute_url())
    record = response.context["record"]
    assert (record.games, record.wins, record.places) == (1, 0, {2: 1})
    rivals = {
        rival.player.name: (rival.games, rival.ahead, rival.behind) for rival in record.rivals
    }
    assert rivals == {"Ann": (1, 0, 1), "Cat": (1, 1, 0), "Dan": (1, 1, 0)}
    assert [contract["points"] for contract in record.contracts] == [10] * 7
    assert [game["total"] for game in record.series] == [70]
    page = text(response)
    assert table.get_absolute_url() in page
    assert "CHART" not in page  # the chart's place is a template comment, not shown


def test_a_player_page_for_htmx_is_the_record_only(client, table):
    player = table.seats.first().player
    client.force_login(table.created_by)
    response = client.get(
        player.get_absolute_url(), {"season": table.season_id}, headers={"HX-Request": "true"}
    )
    assert response.content.decode().lstrip().startswith('<div id="record">')
    assert response.context["record"].season == table.season
    # Another club's season id, or nonsense, shows all time.
    stranger = make_club()
    for value in [stranger.seasons.get().pk, "x", "9" * 30]:
        assert (
            client.get(player.get_absolute_url(), {"season": value}).context["record"].season
            is None
        )


def _urls(table):
    season, player = table.season, table.seats.first().player
    return {
        "get": [
            reverse("club_standings", args=[table.club.pk]),
            season.get_absolute_url(),
            player.get_absolute_url(),
        ],
        "post": [
            reverse("season_close", args=[season.pk]),
            reverse("season_share", args=[season.pk]),
            reverse("season_unshare", args=[season.pk]),
            reverse("play_again", args=[table.pk]),
        ],
    }


def test_anonymous_visitors_are_sent_to_log_in(client, table):
    urls = _urls(table)
    for url in urls["get"]:
        assert client.get(url)["Location"].startswith(reverse("login"))
    for url in urls["post"]:
        assert client.post(url)["Location"].startswith(reverse("login"))
    assert Game.objects.count() == 1


def test_another_clubs_seasons_players_and_tables_are_not_found(client, table):
    client.force_login(make_user())
    urls = _urls(table)
    for url in urls["get"]:
        assert client.get(url).status_code == 404
    for url in urls["post"]:
        assert client.post(url).status_code == 404
    table.season.refresh_from_db()
    assert table.season.ends_on is None and table.season.share_token is None
    assert Game.objects.count() == 1


def test_wrong_methods_are_refused(client, table):
    client.force_login(table.created_by)
    urls = _urls(table)
    for url in urls["get"]:
        assert client.post(url).status_code == 405
    for url in urls["post"]:
        assert client.get(url).status_code == 405


def test_closing_the_current_season_ends_it_today_and_new_tables_go_to_the_next(client, table):
    club = table.club
    today = timezone.localdate()
    old = club.seasons.get()
    newer = services.season_create(
        user=club.owner(), club=club, name="Next", starts_on=today - timedelta(days=3)
    )
    services.season_create(
        user=club.owner(), club=club, name="Future", starts_on=today + timedelta(days=30)
    )
    client.force_login(table.created_by)
    form = client.get(reverse("game_new", args=[club.pk])).context["form"]
    assert form.fields["season"].initial == newer
    response = client.post(reverse("season_close", args=[newer.pk]), follow=True)
    assert "Next is closed" in text(response)
    newer.refresh_from_db()
    assert newer.ends_on == today
    form = client.get(reverse("game_new", args=[club.pk])).context["form"]
    assert form.fields["season"].initial == old
    response = client.post(reverse("season_close", args=[newer.pk]), follow=True)
    assert "Next has already ended" in text(response)


def test_adding_a_season_with_an_end_and_refusing_one_that_ends_before_it_starts(client, table):
    club = table.club
    client.force_login(table.created_by)
    url = reverse("season_add", args=[club.pk])
    response = client.post(
        url, {"name": "Backwards", "starts_on": "2030-05-01", "ends_on": "2030-04-01"}
    )
    assert "A season cannot end before it starts." in text(response)
    assert not Season.objects.filter(name="Backwards").exists()
    client.post(url, {"name": "Summer", "starts_on": "2030-06-01", "ends_on": "2030-09-01"})
    assert Season.objects.get(name="Summer").ends_on == date(2030, 9, 1)


def test_a_shared_link_shows_the_seasons_standings_only_until_revoked(client, table):
    season = table.season
    client.force_login(table.created_by)
    client.post(reverse("season_share", args=[season.pk]))
    season.refresh_from_db()
    token = season.share_token
    assert len(token) >= 40
    assert token in text(client.get(table.club.get_absolute_url()))
    client.logout()
    shared = reverse("shared_standings", args=[token])
    response = client.get(shared, {"sort": "-average"})
    assert response.status_code == 200
    assert [line.player.name for line in response.context["standings"].lines][0] == "Dan"
    page = text(response)
    assert "Placed by win rate" in page
    # Nothing else is reachable through it: no links to players, tables, the club or seasons.
    for url in [table.club.get_absolute_url(), table.get_absolute_url()] + [
        seat.player.get_absolute_url() for seat in table.seats.all()
    ]:
        assert f'href="{url}' not in page
    assert f"{shared}?sort=average" in page  # sorting keeps working through the link
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert response["X-Robots-Tag"] == "noindex"
    assert client.get(season.get_absolute_url()).status_code == 302
    client.force_login(table.created_by)
    client.post(reverse("season_unshare", args=[season.pk]))
    client.logout()
    assert client.get(shared).status_code == 404
    for token in ["x", "y" * 43, "z" * 5000]:
        assert client.get(reverse("shared_standings", args=[token])).status_code == 404


def test_sharing_again_makes_a_new_link_and_the_old_one_stops(client, table):
    season = table.season
    first = services.season_share(user=season.club.owner(), season=season).share_token
    second = services.season_share(user=season.club.owner(), season=season).share_token
    assert first != second
    assert client.get(reverse("shared_standings", args=[first])).status_code == 404
    assert client.get(reverse("shared_standings", args=[second])).status_code == 200


def test_play_again_seats_the_same_players_with_the_next_dealer(client, table):
    club = table.club
    profile = club.profiles.get()
    # The profile changes after the table started: playing again keeps the table's own rules.
    services.profile_save(
        club=club,
        name=profile.name,
        profile=profile,
        house_rules=dataclasses.replace(profile.house_rules, may_i_limit=3),
        user=club.owner(),
    )
    client.force_login(table.created_by)
    response = client.post(reverse("play_again", args=[table.pk]))
    new = Game.objects.exclude(pk=table.pk).get()
    assert response["Location"] == new.get_absolute_url()
    assert [seat.player for seat in new.seats.all()] == [seat.player for seat in table.seats.all()]
    assert (new.first_dealer, new.season, new.rules) == (1, table.season, table.rules)
    # Only a finished table can be played again.
    response = client.post(reverse("play_again", args=[new.pk]), follow=True)
    assert "still being played" in text(response)
    assert Game.objects.count() == 2
    assert "Play again" in text(client.get(table.get_absolute_url()))
