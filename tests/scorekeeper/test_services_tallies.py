"""Head to head and points left, kept with the results: every change to a finished table leaves
them as a count from scratch would."""

import io
from datetime import date

import pytest
from django.core.management import call_command

import rules
from scorekeeper import services
from scorekeeper.models import Club, Game, Player, PointsLeft, Result, Rivalry
from scorekeeper.selectors import archive
from scorekeeper.services import tallies
from tests.factories import built_once, finish_game, make_club, make_game, make_player, run_tasks

# slow: finished tables played through the services.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _kept() -> dict:
    return {
        "rivals": set(
            Rivalry.objects.values_list("player", "season", "other", "games", "ahead", "behind")
        ),
        "points left": set(
            PointsLeft.objects.values_list("player", "season", "contract", "rounds", "points")
        ),
    }


def _from_scratch() -> dict:
    """What adding up every club's results again gives (what was kept is put back after)."""
    kept = _kept()
    for club_id in set(Result.objects.values_list("club", flat=True)):
        tallies.tallies_rebuild(club_id=club_id)
    counted = _kept()
    Rivalry.objects.all().delete()
    PointsLeft.objects.all().delete()
    Rivalry.objects.bulk_create(
        Rivalry(player_id=p, season_id=s, other_id=o, games=g, ahead=a, behind=b)
        for p, s, o, g, a, b in kept["rivals"]
    )
    PointsLeft.objects.bulk_create(
        PointsLeft(player_id=p, season_id=s, contract=c, rounds=r, points=n)
        for p, s, c, r, n in kept["points left"]
    )
    return counted


@pytest.fixture(scope="module")
def built_league(django_db_setup, django_db_blocker):
    """The league's ids, built once for the module's tests (28 rounds through the services)."""
    with built_once(django_db_blocker):
        club = make_club()
        players = [make_player(club, name) for name in ["Ann", "Ben", "Cat", "Dan", "Eve"]]
        spring = services.season_create(
            user=club.owner(), club=club, name="Spring", starts_on=date(2020, 3, 1)
        )
        games = []
        seatings = [players[:4], players[1:], players[:3], [players[4], *players[:3]]]
        for n, seated in enumerate(seatings):
            game = make_game(club, seated=seated, season=spring if n == 3 else None)
            rounds = [(n % len(seated), [5 * (k + 1) for k in range(len(seated) - 1)])] * 7
            games.append(finish_game(game, rounds))
        yield club.pk, [player.pk for player in players], [game.pk for game in games]


@pytest.fixture
def league(built_league):
    """Four finished tables among five players, the last in a second season; read afresh for
    the test (what an earlier test changed was undone in the database)."""
    club, players, games = built_league
    return (
        Club.objects.get(pk=club),
        [Player.objects.get(pk=pk) for pk in players],
        [Game.objects.get(pk=pk) for pk in games],
    )


def test_finishing_a_table_counts_its_head_to_head_and_points_left(league):
    club, (ann, ben, cat, dan, eve), games = league
    first = games[0].season
    # Table 1: Ann went out of every round, Ben, Cat and Dan held 5, 10 and 15 each time.
    ann_first = Rivalry.objects.filter(player=ann, season=first).values_list(
        "other__name", "games", "ahead", "behind"
    )
    # Table 3 (Ann, Ben, Cat): Cat went out of every round, Ann held 5 and Ben 10.
    assert set(ann_first) == {("Ben", 2, 2, 0), ("Cat", 2, 1, 1), ("Dan", 1, 1, 0)}
    ben_points = PointsLeft.objects.filter(player=ben, season=first).values_list(
        "contract", "rounds", "points"
    )
    # Tables 1, 2 and 3: 5, then 5 (Cat went out, Ben in seat 0), then 10 at every contract.
    assert set(ben_points) == {(contract, 3, 20) for contract in range(1, 8)}
    assert not Rivalry.objects.filter(player=dan, season=games[3].season).exists()
    assert _kept() == _from_scratch()


def _edit_first_round(game, points: int = 200):
    seats = list(game.seats.all())
    game.refresh_from_db()
    services.round_edit(
        game=game,
        version=game.version,
        round_=game.rounds.get(number=1),
        went_out=seats[-1],
        entries={seat.pk: rules.HandEntry(points=points) for seat in seats[:-1]},
        user=game.created_by,
    )


def test_editing_a_finished_round_changes_that_tables_share_only(league):
    _, _, games = league
    _edit_first_round(games[1])
    run_tasks()  # the ratings of the later tables: the tallies were changed at once
    assert _kept() == _from_scratch()
    ben = games[1].seats.get(position=0).player
    first = PointsLeft.objects.get(player=ben, season=games[1].season, contract=1)
    assert (first.rounds, first.points) == (3, 5 + 200 + 10)


def test_undoing_a_tables_last_save_takes_its_share_away_and_finishing_it_adds_it(league):
    _, (ann, ben, cat, dan, eve), games = league
    third = games[2]
    services.action_undo(game=third, version=third.version, user=third.created_by)
    assert _kept() == _from_scratch()
    assert Rivalry.objects.get(player=ann, other=cat, season=third.season).games == 1
    third.refresh_from_db()
    seats = list(third.seats.all())
    services.round_score(
        game=third,
        version=third.version,
        entries={seats[0].pk: rules.HandEntry(points=5), seats[1].pk: rules.HandEntry(points=10)},
        user=third.created_by,
    )
    assert Rivalry.objects.get(player=ann, other=cat, season=third.season).games == 2
    assert _kept() == _from_scratch()


def test_deleting_a_table_takes_its_share_away_and_rows_left_empty_go(league):
    club, (ann, ben, cat, dan, eve), games = league
    services.game_delete(game=games[3], user=club.owner())
    spring = games[3].season
    assert not Rivalry.objects.filter(season=spring).exists()
    assert not PointsLeft.objects.filter(season=spring).exists()
    services.game_delete(game=games[0], user=club.owner())
    assert not Rivalry.objects.filter(player=ann, other=dan).exists()
    assert _kept() == _from_scratch()


def test_rebuilding_the_results_adds_them_up_again(league):
    kept = _kept()
    Rivalry.objects.all().delete()
    PointsLeft.objects.all().delete()
    call_command("results_rebuild", stdout=io.StringIO())
    assert _kept() == kept


def test_an_imported_club_has_the_head_to_head_and_points_left_of_the_original(league):
    club, _, _ = league
    restored = make_club(club.owner(), name="Restored")
    document = archive.club_export_json(club)
    services.club_import(user=restored.owner(), club=restored, document=document)
    names = dict(Player.objects.values_list("pk", "name"))

    def described(club_id):
        return {
            (names[p], names[o], g, a, b)
            for p, o, g, a, b in Rivalry.objects.filter(player__club_id=club_id).values_list(
                "player", "other", "games", "ahead", "behind"
            )
        }

    assert described(restored.pk) == described(club.pk) != set()
    assert _kept() == _from_scratch()
