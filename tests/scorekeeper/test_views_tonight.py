"""The club night page (scorekeeper/views/tonight.py, selectors/tonight.py): tonight's tables on
the club's date, how the standings moved since the night's first finished table, and its TV link,
which shows it to anyone holding it until it is turned off."""

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services
from scorekeeper.management.commands.bench_standings import club_seed
from scorekeeper.models import Club, Game, Membership, Recount, Result, Role
from scorekeeper.selectors.tonight import tonight_for
from tests.factories import (
    built_once,
    database_state,
    finish_game,
    make_club,
    make_game,
    make_player,
    make_user,
    play_round,
)

# slow: finished tables played through the services.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

HTMX = {"HX-Request": "true"}


def text(response) -> str:
    return html.unescape(response.content.decode())


def night_url(club: Club) -> str:
    return reverse("club_tonight", args=[club.pk])


def tv_url(club: Club) -> str:
    club = services.club_tv_link_create(club=club, user=club.owner())
    return reverse("tonight_tv", args=[club.tv_token])


def days_ago(game: Game, days: int) -> Game:
    """Move a table, and its results, `days` back in time."""
    earlier = timedelta(days=days)
    Game.objects.filter(pk=game.pk).update(
        started_at=F("started_at") - earlier, finished_at=F("finished_at") - earlier
    )
    Result.objects.filter(game=game).update(finished_at=F("finished_at") - earlier)
    game.refresh_from_db()
    return game


@pytest.fixture(scope="module")
def built_night(django_db_setup, django_db_blocker):
    """The night's club and tables, built once for the module's tests (three tables played
    through the services): their ids."""
    with built_once(django_db_blocker):
        club = make_club(name="The Crown")
        ann, ben, cat, dan, eve = (
            make_player(club, name) for name in ["Ann", "Ben", "Cat", "Dan", "Eve"]
        )
        yesterday = days_ago(finish_game(make_game(club, [ann, ben, cat])), 1)
        tonight = finish_game(make_game(club, [cat, ben, dan]))
        playing = play_round(make_game(club, [ann, ben, eve]))
        yield club.pk, yesterday.pk, tonight.pk, playing.pk


@pytest.fixture
def night(built_night):
    """Ann, Ben and Cat played yesterday (Ann 0, Ben 70, Cat 140). Tonight Cat, Ben and newcomer
    Dan finished a table (Cat 0, Ben 70, Dan 140), and Ann, Ben and Eve are at contract 2.
    Read afresh for the test: what an earlier test changed was undone in the database."""
    club, *games = built_night
    return Club.objects.get(pk=club), *(Game.objects.get(pk=pk) for pk in games)


# What the page shows


def test_tonight_lists_todays_tables_with_players_state_and_winner(client, night):
    club, yesterday, tonight, playing = night
    client.force_login(club.owner())
    response = client.get(night_url(club))
    assert response.status_code == 200
    page = text(response)
    assert "The Crown tonight" in page
    assert "2 tables, 1 playing" in page
    assert "Cat 0 · Ben 70 · Dan 140" in page
    assert re.search(r"<td>finished</td>\s*<td class=\"winners\"><strong>Cat</strong></td>", page)
    assert "Ann, Ben, Eve" in page
    assert "playing · contract 2 of 7" in page
    assert yesterday.get_absolute_url() not in page
    assert tonight.get_absolute_url() in page and playing.get_absolute_url() in page


def test_the_standings_moves_are_since_the_nights_first_finished_table(night):
    club, yesterday, tonight, _ = night
    moves = {move.player.name: move for move in tonight_for(club=club).moves}
    # Before tonight: Ann 1st, Ben 2nd, Cat 3rd. Now: Ann, Cat (a win in two), Ben, Dan (new).
    assert list(moves) == ["Cat", "Ben", "Dan"]
    assert (moves["Cat"].place_before, moves["Cat"].place, moves["Cat"].places_up) == (3, 2, 1)
    assert (moves["Ben"].place_before, moves["Ben"].place, moves["Ben"].places_up) == (2, 3, -1)
    assert (moves["Dan"].place_before, moves["Dan"].place, moves["Dan"].places_up) == (
        None,
        4,
        None,
    )
    # Ratings read from the Result rows: after yesterday's table, and after tonight's.
    for name in ("Cat", "Ben"):
        then = Result.objects.get(game=yesterday, player__name=name).rating
        now = Result.objects.get(game=tonight, player__name=name).rating
        assert (moves[name].rating_before, moves[name].rating) == (then, now)
        assert moves[name].rating_change == now - then
    assert moves["Dan"].rating_before is None
    assert moves["Dan"].rating == Result.objects.get(game=tonight, player__name="Dan").rating


def test_the_page_shows_who_moved_and_who_is_new(client, night):
    club = night[0]
    client.force_login(club.owner())
    page = text(client.get(night_url(club)))
    season = club.seasons.get()
    assert f"Places in the standings of {season} and ratings now" in page
    rows = re.findall(r"<tr(?: class=\"leader\")?>\s*<td>(\d+)</td>\s*<td>.*?>(\w+)</a></td>", page)
    assert [name for _, name in rows] == ["Cat", "Ben", "Dan"]
    assert '▲</span> up 1 <small class="muted">from 3</small>' in page
    assert '▼</span> down 1 <small class="muted">from 2</small>' in page
    assert page.count('<span class="badge">new</span>') == 2  # Dan's place and rating


def test_a_shared_win_names_every_winner():
    club = make_club()
    game = make_game(club, 3)
    # Ann and Ben take turns going out, then Cat does: Ann 40, Ben 40, Cat 120.
    rounds = [(n % 2, [10, 20]) for n in range(6)] + [(2, [10, 10])]
    finish_game(game, rounds)
    (table,) = tonight_for(club=club).tables
    assert [result.total for result in table.results] == [40, 40, 120]
    assert table.winners == [seat.player for seat in game.seats.order_by("position")[:2]]


def test_before_any_table_finishes_no_one_has_moved(client):
    club = make_club()
    make_game(club, 3)
    night = tonight_for(club=club)
    assert night.moves == [] and night.playing == 1
    client.force_login(club.owner())
    assert "Once a table finishes" in text(client.get(night_url(club)))


def test_while_a_worker_recounts_the_ratings_the_moves_wait(client, night):
    club = night[0]
    Recount.objects.create(club=club)  # queued, its worker not yet done
    night = tonight_for(club=club)
    assert night.recounting and night.moves == []
    client.force_login(club.owner())
    assert "The standings are being recounted…" in text(client.get(night_url(club)))


def test_tables_of_several_seasons_move_the_all_time_standings(client, night):
    club, _, _, playing = night
    other = services.season_create(
        club=club, user=club.owner(), name="Friendlies", starts_on=club.today()
    )
    Game.objects.filter(pk=playing.pk).update(season=other)
    finish_game(playing)
    night = tonight_for(club=club)
    assert night.all_time
    assert {move.player.name for move in night.moves} == {"Ann", "Ben", "Cat", "Dan", "Eve"}
    client.force_login(club.owner())
    assert "Places in the all-time standings" in text(client.get(night_url(club)))


# Moments when the club's date is not the server's (UTC): at 04:00 UTC on Friday it is still
# Thursday evening in Los Angeles.
LA_NIGHT = datetime(2026, 3, 6, 4, 0, tzinfo=UTC)


def test_today_is_the_clubs_date_not_the_servers(monkeypatch):
    club = services.club_create(user=make_user(), name="Far away", time_zone="America/Los_Angeles")
    started = {
        "Thursday 14:00 in LA": datetime(2026, 3, 5, 22, 0, tzinfo=UTC),
        "Thursday 19:00 in LA, Friday in UTC": datetime(2026, 3, 6, 3, 0, tzinfo=UTC),
        "Wednesday 23:00 in LA, Thursday in UTC": datetime(2026, 3, 5, 7, 0, tzinfo=UTC),
    }
    games = {}
    for when, moment in started.items():
        games[when] = make_game(club, 3)
        Game.objects.filter(pk=games[when].pk).update(started_at=moment)
    monkeypatch.setattr(timezone, "now", lambda: LA_NIGHT)
    night = tonight_for(club=club)
    assert str(night.day) == "2026-03-05"
    assert [table.game.pk for table in night.tables] == [
        games["Thursday 14:00 in LA"].pk,
        games["Thursday 19:00 in LA, Friday in UTC"].pk,
    ]


def test_a_table_started_yesterday_and_finished_today_is_tonights(night):
    club, _, tonight, _ = night
    Game.objects.filter(pk=tonight.pk).update(started_at=F("started_at") - timedelta(days=1))
    assert tonight.pk in [table.game.pk for table in tonight_for(club=club).tables]


def club_night(user, *, finished: int, playing: int) -> Club:
    """A club of twelve players: a table finished yesterday, `finished` tonight (five players
    each) and `playing` still being played."""
    club = club_seed(games=finished + 1, user=user)
    days_ago(club.games.order_by("finished_at").first(), 1)
    for _ in range(playing):
        make_game(club, list(club.players.all()[:4]))
    return club


# Pinned query counts: session, user, club, then tonight's tables (tables, seats, results,
# rounds), whether a recount waits, the standings now and before tonight (figures, ratings each).
@pytest.mark.parametrize(("finished", "playing"), [(1, 1), (30, 4)])
def test_the_page_runs_a_fixed_number_of_queries(
    client, django_assert_num_queries, finished, playing
):
    user = make_user()
    club = club_night(user, finished=finished, playing=playing)
    client.force_login(user)
    with django_assert_num_queries(12):
        response = client.get(night_url(club))
    assert len(response.context["tonight"].tables) == finished + playing
    assert response.context["tonight"].moves


@pytest.mark.parametrize(("finished", "playing"), [(1, 1), (30, 4)])
def test_the_tv_runs_a_fixed_number_of_queries(
    client, django_assert_num_queries, finished, playing
):
    club = club_night(make_user(), finished=finished, playing=playing)
    url = tv_url(club)
    # The club through its link, then the nine of tonight's page.
    with django_assert_num_queries(10):
        assert client.get(url).status_code == 200


# Who may see it


def test_htmx_gets_the_night_alone_and_the_page_polls_every_10_seconds(client, night):
    club = night[0]
    client.force_login(club.owner())
    page = text(client.get(night_url(club)))
    assert 'hx-trigger="every 10s"' in page and "data-poll" in page
    fragment = client.get(night_url(club), headers=HTMX)
    assert fragment.content.decode().lstrip().startswith('<section id="night"')
    assert "<html" not in fragment.content.decode()


def test_the_club_page_links_to_tonight(client, night):
    club = night[0]
    client.force_login(club.owner())
    assert f'href="{night_url(club)}">Tonight</a>' in text(client.get(club.get_absolute_url()))


def test_another_clubs_night_is_a_404(client, night):
    client.force_login(make_user())
    assert client.get(night_url(night[0])).status_code == 404


def test_anonymous_visitors_are_sent_to_log_in(client, night):
    response = client.get(night_url(night[0]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_page_refuses_post(client, night):
    client.force_login(night[0].owner())
    assert client.post(night_url(night[0])).status_code == 405


def test_a_viewer_reads_it_without_the_tv_link_buttons(client, night):
    club = night[0]
    viewer = make_user()
    Membership.objects.create(club=club, user=viewer, role=Role.VIEWER)
    client.force_login(viewer)
    page = text(client.get(night_url(club)))
    assert "Cat 0 · Ben 70 · Dan 140" in page
    assert "Make a TV link" not in page


# The TV


def test_the_tv_needs_no_account_and_has_no_buttons_nor_links_into_the_club(client, night):
    club, _, tonight, _ = night
    response = client.get(tv_url(club))
    assert response.status_code == 200
    page = text(response)
    # Each player in a place of their own, a long name cut short on the screen, whole in its title.
    for name, total in [("Cat", 0), ("Ben", 70), ("Dan", 140)]:
        assert f'<span class="tv-name" title="{name}">{name}</span> {total}</span>' in page
    assert "tv.css" in page and 'class="night tv"' in page
    assert 'hx-trigger="every 10s"' in page and "data-wake" in page
    for forbidden in ("<button", "<form", 'role="button"', "Log in", "Log out"):
        assert forbidden not in page
    assert tonight.get_absolute_url() not in page
    assert "/players/" not in page
    assert response["X-Robots-Tag"] == "noindex"
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_the_tv_shows_four_tables_at_a_time_and_a_members_screen_all(client, night):
    club = night[0]
    players = list(club.players.all()[:3])
    for _ in range(4):
        make_game(club, players)  # six tables tonight
    page = client.get(tv_url(club)).content.decode()
    assert '<tbody data-turn="Tables 1–4 of 6">' in page
    assert '<tbody data-turn="Tables 5–6 of 6" hidden>' in page
    assert 'data-turns-of="night-tables">Tables 1–4 of 6</small>' in page
    client.force_login(club.owner())
    page = client.get(night_url(club)).content.decode()
    assert '<tbody data-turn="Tables 1–6 of 6">' in page and "data-turns-of" not in page


def test_the_tv_poll_gets_the_night_alone(client, night):
    response = client.get(tv_url(night[0]), headers=HTMX)
    assert response.content.decode().lstrip().startswith('<section id="night" class="night tv"')
    assert "no-store" in response["Cache-Control"]


def test_the_tv_shows_times_in_the_clubs_time_zone(client, night):
    club, _, tonight, _ = night
    Club.objects.filter(pk=club.pk).update(time_zone="Asia/Kolkata")
    moment = timezone.now().replace(hour=10, minute=0, second=0, microsecond=0)
    Game.objects.filter(pk=tonight.pk).update(started_at=moment)
    page = text(client.get(tv_url(club)))
    assert "<td>15:30</td>" in page  # 10:00 UTC is 15:30 in India


@pytest.mark.parametrize("token", ["x", "a" * 42, "a" * 44, "a" * 3000, "-" * 43])
def test_a_wrong_token_is_a_404_that_says_so(client, night, token, django_assert_max_num_queries):
    tv_url(night[0])
    with django_assert_max_num_queries(1):
        response = client.get(f"/tonight/{token}/")
    assert response.status_code == 404
    assert "This TV link was turned off, or never made." in text(response)
    assert response["X-Robots-Tag"] == "noindex"


def test_the_tv_refuses_post(client, night):
    assert client.post(tv_url(night[0])).status_code == 405


# Making and turning off the TV link


def link_url(name: str, club: Club) -> str:
    return reverse(name, args=[club.pk])


def test_a_scorer_makes_the_tv_link_by_htmx_and_it_stays_the_same(client, night):
    club = night[0]
    scorer = make_user()
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    client.force_login(scorer)
    response = client.post(link_url("tonight_tv_link_create", club), headers=HTMX)
    assert response.status_code == 200
    token = Club.objects.get(pk=club.pk).tv_token
    assert len(token) == 43
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="tv-link"')
    assert f"http://testserver/tonight/{token}/" in page
    assert "Turn the TV link off" in page
    client.post(link_url("tonight_tv_link_create", club), headers=HTMX)
    assert Club.objects.get(pk=club.pk).tv_token == token


def test_turning_it_off_makes_it_a_404_and_a_new_one_has_a_new_address(client, night):
    club = night[0]
    old = tv_url(club)
    client.force_login(club.owner())
    response = client.post(link_url("tonight_tv_link_revoke", club), headers=HTMX)
    assert "Make a TV link" in response.content.decode()
    assert Club.objects.get(pk=club.pk).tv_token is None
    assert client.get(old).status_code == 404
    new = tv_url(club)
    assert new != old
    assert client.get(new).status_code == 200


def test_without_htmx_making_and_turning_off_go_back_to_the_page(client, night):
    club = night[0]
    client.force_login(club.owner())
    response = client.post(link_url("tonight_tv_link_create", club))
    assert response["Location"] == f"{night_url(club)}#tv-link"
    token = Club.objects.get(pk=club.pk).tv_token
    assert f"/tonight/{token}/" in text(client.get(night_url(club)))
    response = client.post(link_url("tonight_tv_link_revoke", club))
    assert response["Location"] == f"{night_url(club)}#tv-link"


@pytest.mark.parametrize("name", ["tonight_tv_link_create", "tonight_tv_link_revoke"])
def test_link_actions_refuse_get(client, night, name):
    client.force_login(night[0].owner())
    assert client.get(link_url(name, night[0])).status_code == 405


@pytest.mark.parametrize("name", ["tonight_tv_link_create", "tonight_tv_link_revoke"])
def test_link_actions_of_another_club_are_a_404_and_change_nothing(client, night, name):
    club = night[0]
    tv_url(club)
    client.force_login(make_user())
    before = database_state()
    assert client.post(link_url(name, club), headers=HTMX).status_code == 404
    assert database_state() == before


@pytest.mark.parametrize("name", ["tonight_tv_link_create", "tonight_tv_link_revoke"])
def test_a_viewer_may_not_make_or_turn_off_the_link(client, night, name):
    club = night[0]
    tv_url(club)
    viewer = make_user()
    Membership.objects.create(club=club, user=viewer, role=Role.VIEWER)
    client.force_login(viewer)
    before = database_state()
    assert client.post(link_url(name, club), headers=HTMX).status_code == 403
    assert database_state() == before


@pytest.mark.parametrize("name", ["tonight_tv_link_create", "tonight_tv_link_revoke"])
def test_link_actions_send_anonymous_visitors_to_log_in(client, night, name):
    response = client.post(link_url(name, night[0]))
    assert response["Location"].startswith(reverse("login"))
    assert Club.objects.get(pk=night[0].pk).tv_token is None
