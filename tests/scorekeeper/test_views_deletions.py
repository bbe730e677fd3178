"""The deletion pages (scorekeeper/views/deletions.py): what goes and what stays first, then the
deletion, for owners only."""

import pytest
from django.urls import reverse

from scorekeeper.management.commands.bench_standings import club_seed
from scorekeeper.models import Club, Game, Membership, Player, Result, Role, RulesProfile, Season
from tests.factories import (
    database_state,
    finish_game,
    make_player,
    make_user,
    seats,
    text_of,
)

pytestmark = pytest.mark.django_db

# Each deletion's URL name, and the object of the `game` fixture's club it is tried on.
TARGETS = {
    "player_delete": lambda game: seats(game)[0].player.pk,
    "profile_delete": lambda game: game.profile_id,
    "season_delete": lambda game: game.season_id,
    "game_delete": lambda game: game.pk,
    "club_delete": lambda game: game.club_id,
}


@pytest.fixture(params=list(TARGETS))
def deletion(request):
    return request.param


def target_url(name: str, game: Game) -> str:
    return reverse(name, args=[TARGETS[name](game)])


def test_an_owner_is_told_what_goes_and_what_stays(client, member, game, deletion, htmx_headers):
    response = client.get(target_url(deletion, game), headers=htmx_headers)
    assert response.status_code == 200
    body = text_of(response)
    assert "Delete " in body
    assert ("<html" in body) is not bool(htmx_headers)
    assert 'id="deletion"' in body


@pytest.mark.parametrize("role", [Role.SCORER, Role.VIEWER])
@pytest.mark.parametrize("method", ["get", "post"])
def test_scorers_and_viewers_are_refused_and_nothing_changes(client, game, deletion, role, method):
    user = make_user()
    Membership.objects.create(club=game.club, user=user, role=role)
    client.force_login(user)
    before = database_state()
    response = getattr(client, method)(target_url(deletion, game), {"confirm_name": game.club.name})
    assert response.status_code == 403
    assert "Only the club's owners may do that." in text_of(response)
    assert database_state() == before


@pytest.mark.parametrize("method", ["get", "post"])
def test_another_clubs_object_is_a_404(client, member, stranger, deletion, method):
    before = database_state()
    response = getattr(client, method)(target_url(deletion, stranger))
    assert response.status_code == 404
    assert database_state() == before


@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_visitors_are_sent_to_log_in(client, game, deletion, method):
    url = target_url(deletion, game)
    response = getattr(client, method)(url)
    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"
    assert Game.objects.filter(pk=game.pk).exists()


@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_other_methods_are_refused(client, member, game, deletion, method):
    assert getattr(client, method)(target_url(deletion, game)).status_code == 405
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_player_who_never_played_is_deleted(client, member, game):
    zed = make_player(game.club, "Zed")
    url = reverse("player_delete", args=[zed.pk])
    assert "no table has had Zed at it" in text_of(client.get(url))
    response = client.post(url)
    assert response.url == game.club.get_absolute_url()
    assert not Player.objects.filter(pk=zed.pk).exists()


def test_a_player_who_played_leaves_the_roster_and_the_finished_table_keeps_them(
    client, member, game
):
    finish_game(game)
    ann = seats(game)[1].player
    totals = {result.player.name: result.total for result in game.results.all()}
    url = reverse("player_delete", args=[ann.pk])
    preview = text_of(client.get(url))
    assert f"1 finished table keeps {ann}'s name, scores and totals" in preview
    client.post(url)
    ann.refresh_from_db()
    assert ann.retired
    club_page = client.get(game.club.get_absolute_url())
    assert ann not in club_page.context["players"]
    assert (
        ann
        not in client.get(reverse("game_new", args=[game.club_id]))
        .context["form"]
        .fields["seat_0"]
        .queryset
    )
    for page in [game.get_absolute_url(), game.season.get_absolute_url()]:
        body = text_of(client.get(page))
        for name, total in totals.items():
            assert name in body
            assert str(total) in body
    assert "no longer among the players" in text_of(client.get(ann.get_absolute_url()))


def test_a_profile_deleted_leaves_the_finished_table_as_it_was(client, member, game, short_rules):
    finish_game(game)
    before = text_of(client.get(game.get_absolute_url()))
    url = reverse("profile_delete", args=[game.profile_id])
    assert "1 table started under Seed rules keeps its own copy" in text_of(client.get(url))
    assert client.post(url).status_code == 302
    assert not RulesProfile.objects.filter(pk=game.profile_id).exists()
    after = text_of(client.get(game.get_absolute_url()))
    for seat in seats(game):
        assert seat.player.name in after
    assert before.count("<td") == after.count("<td")
    assert Result.objects.filter(game=game).count() == 4


def test_a_season_with_tables_is_kept_with_what_to_do(client, member, game):
    url = reverse("season_delete", args=[game.season_id])
    body = text_of(client.get(url))
    assert "has 1 table" in body
    assert "delete those tables first" in body
    assert 'type="submit"' not in body.split('id="deletion"')[1]
    before = database_state()
    body = text_of(client.post(url))
    assert "has 1 table" in body
    assert database_state() == before


def test_an_empty_season_is_deleted(client, member, game):
    empty = Season.objects.create(club=game.club, name="Spring", starts_on=game.season.starts_on)
    url = reverse("season_delete", args=[empty.pk])
    assert "no table was played in it" in text_of(client.get(url))
    assert client.post(url).url == game.club.get_absolute_url()
    assert not Season.objects.filter(pk=empty.pk).exists()


def test_a_finished_table_is_deleted_and_leaves_the_standings(client, member, game):
    finish_game(game)
    url = reverse("game_delete", args=[game.pk])
    body = text_of(client.get(url))
    assert "7 contracts played" in body
    assert "leave the standings" in body
    response = client.post(url, follow=True)
    assert response.redirect_chain[-1][0] == game.club.get_absolute_url()
    assert f"Deleted {game}." in text_of(response)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Result.objects.filter(club=game.club).exists()
    assert Player.objects.filter(club=game.club).count() == 4


def test_the_club_needs_its_name_typed(client, member, game):
    url = reverse("club_delete", args=[game.club_id])
    body = text_of(client.get(url))
    assert "1 table (0 finished)" in body
    assert "4 players, 1 season" in body
    assert 'name="confirm_name"' in body
    before = database_state()
    body = text_of(client.post(url, {"confirm_name": "not the name"}))
    assert f"Type the club's name, {game.club.name}, exactly" in body
    assert 'role="alert"' in body
    assert database_state() == before
    response = client.post(url, {"confirm_name": game.club.name})
    assert response.url == reverse("home")
    assert not Club.objects.filter(pk=game.club_id).exists()
    assert not Membership.objects.exists()


def test_owners_see_the_deletion_links_and_scorers_do_not(client, member, game):
    finish_game(game)
    pages = {
        game.club.get_absolute_url(): ["club_delete", "profile_delete", "season_delete"],
        game.get_absolute_url(): ["game_delete"],
        seats(game)[0].player.get_absolute_url(): ["player_delete"],
    }
    links = {
        "club_delete": game.club_id,
        "profile_delete": game.profile_id,
        "season_delete": game.season_id,
        "game_delete": game.pk,
        "player_delete": seats(game)[0].player.pk,
    }
    for page, names in pages.items():
        body = text_of(client.get(page))
        for name in names:
            assert reverse(name, args=[links[name]]) in body
    Membership.objects.filter(club=game.club).update(role=Role.SCORER)
    for page, names in pages.items():
        body = text_of(client.get(page))
        for name in names:
            assert reverse(name, args=[links[name]]) not in body


def spare_profile(club: Club) -> RulesProfile:
    return RulesProfile.objects.create(
        club=club, name="Spare", settings=club.profiles.get().settings
    )


def spare_season(club: Club) -> Season:
    return Season.objects.create(club=club, name="Spare", starts_on=club.seasons.get().starts_on)


# Pinned query counts: session, user, the object with the member's role, then the preview's: the
# club's tables, members, contracts, photos, players, seasons and profiles; a player's tables; a
# profile's siblings and tables; a season's tables (and siblings when it has none); a table's
# seats, contracts, history, questions, photos. The bench club has one profile and one season:
# theirs are refused, a spare one goes.
@pytest.mark.parametrize("games", [1, 30])
@pytest.mark.parametrize(
    ("name", "target", "queries"),
    [
        ("club_delete", lambda club: club.pk, 10),
        ("player_delete", lambda club: club.players.first().pk, 4),
        ("profile_delete", lambda club: club.profiles.get().pk, 4),
        ("profile_delete", lambda club: spare_profile(club).pk, 5),
        ("season_delete", lambda club: club.seasons.get().pk, 4),
        ("season_delete", lambda club: spare_season(club).pk, 5),
        ("game_delete", lambda club: club.games.first().pk, 9),
    ],
)
def test_the_previews_run_a_fixed_number_of_queries(
    client, django_assert_num_queries, games, name, target, queries
):
    user = make_user()
    club = club_seed(games=games, user=user)
    client.force_login(user)
    url = reverse(name, args=[target(club)])
    with django_assert_num_queries(queries):
        response = client.get(url)
    assert response.status_code == 200


def test_playing_again_with_a_retired_player_says_to_add_them_again(client, member, game):
    finish_game(game)
    ann, ben = seats(game)[1].player, seats(game)[2].player
    for player in [ann, ben]:
        client.post(reverse("player_delete", args=[player.pk]))
    response = client.post(reverse("play_again", args=[game.pk]), follow=True)
    assert response.redirect_chain == [(game.get_absolute_url(), 302)]
    body = text_of(response)
    assert f"{ann} and {ben} are no longer among the club's players: add them again" in body
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    "typed",
    ["", "\x00", "N" * 10_000, "Club\u200b", "<script>alert(1)</script>", "' OR 1=1 --"],
    ids=["empty", "nul", "huge", "zero-width", "html", "sql"],
)
def test_a_club_name_typed_wrong_changes_nothing(client, member, game, typed):
    before = database_state()
    response = client.post(reverse("club_delete", args=[game.club_id]), {"confirm_name": typed})
    assert response.status_code == 200
    assert "<script>alert" not in response.content.decode()
    assert "Type the club's name" in text_of(response)
    assert database_state() == before


def test_a_player_at_a_table_in_play_is_told_the_table_goes_on(client, member, game):
    ann = seats(game)[0].player
    body = text_of(client.get(reverse("player_delete", args=[ann.pk])))
    assert f"1 table in play goes on with {ann} seated" in body
    client.post(reverse("player_delete", args=[ann.pk]))
    assert text_of(client.get(game.get_absolute_url())).count(ann.name) >= 1
    assert Player.objects.get(pk=ann.pk).retired
