"""Deleting players, rule profiles, seasons, tables and clubs (scorekeeper/services/deletions.py):
finished tables never break."""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from scorekeeper import services
from scorekeeper.models import (
    Club,
    Event,
    Game,
    Membership,
    Photo,
    Player,
    Recount,
    Result,
    Role,
    Round,
    RulesProfile,
    Season,
)
from tests.factories import (
    database_state,
    finish_game,
    kept_photo,
    make_club,
    make_game,
    make_player,
    make_user,
    record_check,
    run_tasks,
    seats,
)

pytestmark = pytest.mark.django_db


def member(club: Club, role: Role):
    user = make_user()
    Membership.objects.create(club=club, user=user, role=role)
    return user


def results_of(game: Game) -> list[tuple]:
    return list(
        Result.objects.filter(game=game)
        .order_by("player__name")
        .values_list("player__name", "place", "total", "rating")
    )


def test_a_player_who_never_played_is_deleted_outright(game):
    club = game.club
    newcomer = make_player(club, "Zed")
    assert services.player_delete(player=newcomer, user=club.owner()) is None
    assert not Player.objects.filter(pk=newcomer.pk).exists()


def test_a_player_who_played_is_retired_and_the_finished_table_keeps_them(game):
    finish_game(game)
    club, ann = game.club, seats(game)[1].player
    before = results_of(game)
    retired = services.player_delete(player=ann, user=club.owner())
    assert retired.retired
    assert results_of(game) == before
    assert ann.name in [name for name, *_ in before]
    assert ann not in club.players.playing()
    with pytest.raises(services.ActionRefused, match="no longer among the club's players"):
        make_game(club, [ann, *[seat.player for seat in seats(game)[2:]]])


def test_adding_a_retired_players_name_brings_them_back(game):
    finish_game(game)
    ann = seats(game)[1].player
    services.player_delete(player=ann, user=game.club.owner())
    back = services.player_create(club=game.club, user=game.club.owner(), name=ann.name.upper())
    assert back.pk == ann.pk
    assert not back.retired
    assert back.results.count() == 1


def test_a_profile_deleted_leaves_its_tables_their_rules(game, short_rules):
    finish_game(game)
    profile = game.profile
    rules_before = game.rules
    services.profile_delete(profile=profile, user=game.club.owner())
    game.refresh_from_db()
    assert game.profile is None
    assert game.rules == rules_before
    assert not RulesProfile.objects.filter(pk=profile.pk).exists()
    assert game.results.count() == 4


def test_the_clubs_last_profile_stays(game):
    before = database_state()
    with pytest.raises(services.ActionRefused, match="only rule profile"):
        services.profile_delete(profile=game.profile, user=game.club.owner())
    assert database_state() == before


def test_a_season_with_tables_stays_and_an_empty_one_goes(game):
    club = game.club
    empty = services.season_create(
        club=club, user=club.owner(), name="Spring", starts_on=game.season.starts_on
    )
    before = database_state()
    with pytest.raises(services.ActionRefused, match="has 1 table"):
        services.season_delete(season=game.season, user=club.owner())
    assert database_state() == before
    services.season_delete(season=empty, user=club.owner())
    assert not Season.objects.filter(pk=empty.pk).exists()


def test_the_clubs_last_season_stays():
    club = make_club()
    with pytest.raises(services.ActionRefused, match="only season"):
        services.season_delete(season=club.seasons.get(), user=club.owner())
    assert club.seasons.count() == 1


def test_a_table_in_play_goes_with_its_rounds_history_checks_and_photos(
    game, django_capture_on_commit_callbacks
):
    record_check(game, game.rounds.get())
    photo = kept_photo(game)
    path = Path(photo.image.path)
    other = make_game(game.club, [seat.player for seat in seats(game)])
    with django_capture_on_commit_callbacks(execute=True):
        services.game_delete(game=game, user=game.club.owner())
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Round.objects.filter(game_id=game.pk).exists()
    assert not Event.objects.filter(game_id=game.pk).exists()
    assert not Photo.objects.exists()
    assert not path.exists()
    assert Game.objects.filter(pk=other.pk).exists()
    assert Player.objects.filter(club=game.club).count() == 4


def test_a_finished_table_leaves_the_standings_and_later_ratings_are_replayed(game):
    club = game.club
    players = [seat.player for seat in seats(game)]
    finish_game(game)
    middle = finish_game(make_game(club, players[::-1]), [(1, None)] * 7)
    last = finish_game(make_game(club, players), [(2, None)] * 7)
    before = results_of(last)
    services.game_delete(game=middle, user=club.owner())
    assert not Result.objects.filter(game_id=middle.pk).exists()
    # The later table is re-rated by a worker: the request only queued it.
    assert results_of(last) == before and Recount.objects.filter(club=club).exists()
    assert run_tasks() == 1
    stored = results_of(last)
    assert stored != before
    services.ratings_replay(club_id=club.pk)
    assert results_of(last) == stored
    assert Result.objects.filter(club=club).count() == 8


def test_a_deletion_rolled_back_keeps_the_photo_files(game, django_capture_on_commit_callbacks):
    photo = kept_photo(game)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.game_delete(game=game, user=game.club.owner())
    assert Path(photo.image.path).exists()  # the files wait for the commit
    assert len(callbacks) == 1


def test_a_club_goes_whole_once_its_name_is_typed(game, django_capture_on_commit_callbacks):
    club = game.club
    finish_game(game)
    photo = kept_photo(make_game(club, [seat.player for seat in seats(game)]))
    scorer = member(club, Role.SCORER)
    stranger = make_game()
    owner = club.owner()
    before = database_state()
    with pytest.raises(services.ActionRefused, match="Type the club's name"):
        services.club_delete(club=club, user=owner, confirm_name=club.name + "x")
    assert database_state() == before
    with django_capture_on_commit_callbacks(execute=True):
        services.club_delete(club=club, user=owner, confirm_name=f"  {club.name} ")
    assert not Club.objects.filter(pk=club.pk).exists()
    assert not Game.objects.filter(club_id=club.pk).exists()
    assert not Player.objects.filter(club_id=club.pk).exists()
    assert not Path(photo.image.path).exists()
    assert get_user_model().objects.filter(pk__in=[owner.pk, scorer.pk]).count() == 2
    assert Game.objects.filter(pk=stranger.pk).exists()


@pytest.mark.parametrize("role", [Role.SCORER, Role.VIEWER])
@pytest.mark.parametrize(
    "delete",
    [
        lambda game, user: services.player_delete(player=seats(game)[0].player, user=user),
        lambda game, user: services.profile_delete(profile=game.profile, user=user),
        lambda game, user: services.season_delete(season=game.season, user=user),
        lambda game, user: services.game_delete(game=game, user=user),
        lambda game, user: services.club_delete(
            club=game.club, user=user, confirm_name=game.club.name
        ),
    ],
    ids=["player", "profile", "season", "table", "club"],
)
def test_only_owners_delete(game, role, delete):
    user = member(game.club, role)
    before = database_state()
    with pytest.raises(services.RoleRefused, match="Only the club's owners"):
        delete(game, user)
    assert database_state() == before
