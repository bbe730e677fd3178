"""Home, clubs, their players and seasons, starting a table, and recounting the standings
(scorekeeper/views/clubs.py)."""

import re

import pytest
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

import rules
from scorekeeper.models import Club, Game, Membership, Player, Recount, Role, RulesProfile
from tests.factories import (
    finish_game,
    make_club,
    make_game,
    make_player,
    make_user,
    play_round,
    post_refused,
    run_tasks,
    seats,
    text_of,
)

pytestmark = pytest.mark.django_db


def test_home_sends_anonymous_visitors_to_log_in(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_creating_a_club_and_joining_it_with_the_code(client):
    founder = make_user()
    client.force_login(founder)
    response = client.post(reverse("club_new"), {"name": "Thursday"})
    club = Club.objects.get()
    assert response["Location"] == club.get_absolute_url()
    friend = make_user()
    client.force_login(friend)
    assert client.get(club.get_absolute_url()).status_code == 404
    client.post(reverse("club_join"), {"invite_code": club.invite_code})
    assert client.get(club.get_absolute_url()).status_code == 200
    wrong = client.post(reverse("club_join"), {"invite_code": "nope"})
    assert "No club has that invite code" in wrong.content.decode()


def test_adding_players_by_htmx_and_refusing_a_duplicate(client):
    user = make_user()
    club = make_club(user)
    client.force_login(user)
    url = reverse("player_add", args=[club.pk])
    response = client.post(url, {"name": "Ann"}, headers={"HX-Request": "true"})
    assert response.content.decode().lstrip().startswith('<div id="players">')
    response = client.post(url, {"name": "ANN"}, headers={"HX-Request": "true"})
    assert "There is already a player called Ann" in text_of(response)
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]
    assert client.get(url).status_code == 405


def test_another_clubs_pages_are_404(client):
    club = make_club()
    client.force_login(make_user())
    for name in ["club", "game_new", "profile_new"]:
        assert client.get(reverse(name, args=[club.pk])).status_code == 404
    assert client.post(reverse("player_add", args=[club.pk]), {"name": "X"}).status_code == 404
    profile = club.profiles.get()
    assert client.get(reverse("profile_edit", args=[profile.pk])).status_code == 404
    assert not Player.objects.exists()


@pytest.mark.parametrize("games", [1, 4])
def test_club_page_query_count_does_not_grow(client, django_assert_num_queries, games):
    club = make_club()
    for _ in range(games):
        play_round(make_game(club, players=5), points=[5, 5, 5, 5])
    client.force_login(club.memberships.get().user)
    # session, user, club, players, seasons, current season, profiles, and a page of tables:
    # count, tables, seats, results, rounds (pinned at 1 and 50 tables in test_views_seasons);
    # whether a recount is waiting
    with django_assert_num_queries(13):
        assert client.get(club.get_absolute_url()).status_code == 200


@pytest.mark.parametrize(
    ("time_zone", "elsewhere"),
    [("Pacific/Kiritimati", "Pacific/Pago_Pago"), ("Pacific/Pago_Pago", "Pacific/Kiritimati")],
)
def test_a_new_season_starts_today_where_the_club_plays(client, time_zone, elsewhere):
    # Kiritimati (UTC+14) and Pago Pago (UTC-11) are 25 hours apart: never on the same day.
    club = make_club()
    Club.objects.filter(pk=club.pk).update(time_zone=time_zone)
    club.refresh_from_db()
    client.force_login(club.owner())
    form = client.get(club.get_absolute_url()).context["season_form"]
    assert form["starts_on"].value() == club.today()
    assert club.today() != Club(time_zone=elsewhere).today()


def test_the_club_page_names_each_box_once(client):
    """The new season's "Name:" label focuses the season's name, not the add-player box."""
    club = make_club()
    client.force_login(club.memberships.get().user)
    page = client.get(club.get_absolute_url()).content.decode()
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert sorted(ids) == sorted(set(ids)), [name for name in set(ids) if ids.count(name) > 1]
    assert re.search(r'<label for="id_season_name"[^>]*>Name', page)
    assert 'id="id_season_name"' in page and 'id="id_name"' in page


def test_starting_a_table_through_the_form(client):
    user = make_user()
    club = make_club(user)
    players = [make_player(club, name) for name in ["Ann", "Ben", "Cleo"]]
    client.force_login(user)
    url = reverse("game_new", args=[club.pk])
    assert client.get(url).status_code == 200
    data = {
        "seat_0": players[2].pk,
        "seat_1": players[0].pk,
        "seat_2": players[1].pk,
        "first_dealer": 1,
        "season": club.seasons.get().pk,
        "profile": club.profiles.get().pk,
    }
    response = client.post(url, data)
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert [seat.player.name for seat in game.seats.all()] == ["Cleo", "Ann", "Ben"]
    assert game.first_dealer == 1


def test_starting_a_table_with_a_player_twice_is_refused(client):
    user = make_user()
    club = make_club(user)
    ann, ben = make_player(club), make_player(club)
    client.force_login(user)
    response = client.post(
        reverse("game_new", args=[club.pk]),
        {
            "seat_0": ann.pk,
            "seat_1": ann.pk,
            "seat_2": ben.pk,
            "first_dealer": 0,
            "season": club.seasons.get().pk,
            "profile": club.profiles.get().pk,
        },
    )
    assert response.status_code == 200
    assert "only once" in response.content.decode()
    assert not Game.objects.exists()


# Bad players, seasons and clubs


@pytest.mark.parametrize(
    "name", ["", "   ", "\t\n", "x" * 41], ids=["empty", "spaces", "tabs", "too long"]
)
def test_a_player_needs_a_name(client, member, game, name, htmx_headers):
    post_refused(
        client, reverse("player_add", args=[game.club.pk]), {"name": name}, headers=htmx_headers
    )


def test_a_player_name_already_taken_in_other_spacing_or_case_is_refused(client, member, game):
    taken = seats(game)[0].player.name
    post_refused(
        client,
        reverse("player_add", args=[game.club.pk]),
        {"name": "  " + taken.upper().replace(" ", "   ")},
        "There is already a player called",
    )


@pytest.mark.parametrize(
    "data",
    [
        {"name": "", "starts_on": "2025-01-01"},
        {"name": "   ", "starts_on": "2025-01-01"},
        {"name": "Spring", "starts_on": "2025-13-45"},
        {"name": "Spring", "starts_on": "soon"},
        {"name": "Spring", "starts_on": ""},
        {"name": "taken", "starts_on": "2025-01-01"},
    ],
    ids=["no name", "spaces", "no such day", "words", "no date", "taken"],
)
def test_a_season_needs_a_name_and_a_real_day(client, member, game, data):
    if data["name"] == "taken":
        data = {**data, "name": game.club.seasons.first().name}
    post_refused(client, reverse("season_add", args=[game.club.pk]), data)


@pytest.mark.parametrize("code", ["", "   ", "no-such-code", "x" * 21, "' OR 1=1 --"])
def test_joining_needs_a_real_invite_code(client, member, stranger, code):
    post_refused(client, reverse("club_join"), {"invite_code": code})


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_a_club_needs_a_name(client, member, name):
    post_refused(client, reverse("club_new"), {"name": name})


# Starting a table


@pytest.fixture
def club(member, game):
    club = game.club
    for _ in range(3):
        make_player(club)
    return club


def start_data(club, players=4, **overrides):
    chosen = list(club.players.order_by("pk"))[:players]
    data = {f"seat_{n}": player.pk for n, player in enumerate(chosen)}
    data.update(
        {
            "first_dealer": "0",
            "season": club.seasons.first().pk,
            "profile": club.profiles.get(name=RulesProfile.SEED_NAME).pk,
        }
    )
    data.update(overrides)
    return data


def test_the_valid_start_used_below_is_accepted(client, club):
    response = client.post(reverse("game_new", args=[club.pk]), start_data(club))
    assert response.status_code == 302


def start_case(name, overrides, words="", marks=()):
    return pytest.param(overrides, words, id=name, marks=marks)


START_REFUSALS = [
    start_case("two players", {"players": 2}, "3 to 5"),
    start_case("no players", {"players": 0}, "you picked 0"),
    start_case("the same player twice", {"seat_1": "seat_0"}, "only once"),
    start_case(
        "a first dealer beyond the players", {"first_dealer": "4"}, "one of the seated players"
    ),
    start_case("a first dealer beyond the seats", {"first_dealer": "9"}),
    start_case("a negative first dealer", {"first_dealer": "-1"}),
    start_case("words for a first dealer", {"first_dealer": "x"}),
    start_case("words for a player", {"seat_0": "abc"}),
    start_case("a player number", {"seat_0": "999999"}),
    start_case("another club's player", {"seat_0": "their player"}),
    start_case("another club's season", {"season": "their season"}),
    start_case("another club's profile", {"profile": "their profile"}),
    start_case("no season", {"season": ""}),
    start_case(
        "five at a known game for four",
        {"players": 5, "profile": "variant:liverpool"},
        "3 to 4 players for Liverpool Rummy",
    ),
    start_case("a known game that is not one", {"profile": "variant:canasta"}, "a known game"),
]


@pytest.mark.parametrize(("overrides", "words"), START_REFUSALS)
def test_a_table_that_cannot_start_is_refused(client, club, stranger, overrides, words):
    overrides = dict(overrides)
    data = start_data(club, players=overrides.pop("players", 4))
    theirs = {
        "seat_0": data.get("seat_0"),
        "their player": stranger.club.players.first().pk,
        "their season": stranger.club.seasons.first().pk,
        "their profile": stranger.club.profiles.first().pk,
    }
    data.update({key: theirs.get(value, value) for key, value in overrides.items()})
    post_refused(client, reverse("game_new", args=[club.pk]), data, words)


@pytest.mark.parametrize("variant", rules.VARIANTS, ids=lambda variant: variant.key)
def test_a_table_starts_from_a_known_game_with_its_rules(client, club, variant):
    page = client.get(reverse("game_new", args=[club.pk])).content.decode()
    assert f'<option value="variant:{variant.key}">{variant.name}</option>' in page
    assert f'href="{variant.source_url}"' in page
    data = start_data(club, players=4, profile=f"variant:{variant.key}")
    response = client.post(reverse("game_new", args=[club.pk]), data)
    game = Game.objects.latest("pk")
    assert response["Location"] == game.get_absolute_url()
    assert game.profile is None
    assert game.house_rules == variant.house_rules
    assert game.rounds.get().hands.count() == 4


def test_six_players_are_refused_rather_than_one_left_out(client, club):
    make_player(club)
    make_player(club)
    players = list(club.players.order_by("pk"))[:6]
    data = start_data(club, players=0)
    data.update({f"seat_{n}": player.pk for n, player in enumerate(players)})
    post_refused(client, reverse("game_new", args=[club.pk]), data)


# Recounting the standings: queued by an owner (or by a change to an earlier finished table),
# done by a worker, followed by the club page.


@pytest.fixture
def two_tables():
    """A club with two finished tables among the same four players."""
    club = make_club()
    players = [make_player(club, name) for name in ["Ann", "Ben", "Cat", "Dan"]]
    first = finish_game(make_game(club, seated=players))
    finish_game(make_game(club, seated=players), [(1, None)] * 7)
    return club, first


def test_an_owner_queues_a_recount_and_the_club_page_follows_it(client, two_tables, htmx_headers):
    club, _ = two_tables
    client.force_login(club.owner())
    url = reverse("club_recount", args=[club.pk])

    response = client.post(url, headers=htmx_headers)

    recount = Recount.objects.get(club=club)
    assert recount.rebuild and DBTaskResult.objects.filter(id=recount.task_id).exists()
    poll = reverse("club_recounting", args=[club.pk])
    if htmx_headers:
        body = text_of(response)
        assert body.lstrip().startswith('<div id="recount"') and "<title>" not in body
    else:
        assert response["Location"] == club.get_absolute_url()
        body = text_of(client.get(club.get_absolute_url()))
    assert "Recounting the standings…" in body and f'hx-get="{poll}"' in body
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204

    assert run_tasks() == 1

    done = client.get(poll, headers={"HX-Request": "true"})
    assert done.status_code == 200 and "The standings are recounted." in text_of(done)
    assert "hx-get" not in text_of(done)  # the poll stops
    assert not Recount.objects.exists()
    assert "Recounting" not in text_of(client.get(club.get_absolute_url()))


def test_deleting_an_earlier_finished_table_shows_the_recount_on_the_club_page(client, two_tables):
    club, first = two_tables
    client.force_login(club.owner())
    response = client.post(reverse("game_delete", args=[first.pk]), follow=True)
    assert "Recounting the standings…" in text_of(response)
    run_tasks()
    assert "Recounting" not in text_of(client.get(club.get_absolute_url()))


def test_only_owners_recount_and_every_member_follows(client, two_tables):
    club, _ = two_tables
    url = reverse("club_recount", args=[club.pk])
    poll = reverse("club_recounting", args=[club.pk])
    scorer = make_user()
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    client.force_login(scorer)
    assert client.post(url).status_code == 403
    assert "Recount the standings" not in text_of(client.get(club.get_absolute_url()))
    assert client.get(url).status_code == 405
    assert client.post(poll).status_code == 405
    # Without htmx, the poll is the club page.
    assert client.get(poll)["Location"] == club.get_absolute_url()
    client.force_login(make_user())
    assert client.post(url).status_code == 404
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 404
    client.logout()
    for response in (client.post(url), client.get(poll)):
        assert response["Location"].startswith(reverse("login"))
    assert not Recount.objects.exists()
    client.force_login(club.owner())
    assert "Recount the standings" in text_of(client.get(club.get_absolute_url()))


def test_where_tasks_run_in_the_request_a_recount_is_done_at_once(client, two_tables, settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    club, first = two_tables
    client.force_login(club.owner())
    response = client.post(reverse("game_delete", args=[first.pk]), follow=True)
    assert "Recounting" not in text_of(response)
    response = client.post(reverse("club_recount", args=[club.pk]), follow=True)
    assert "Recounting" not in text_of(response)
    assert not Recount.objects.exists()
    assert club.games.get().results.count() == 4
