import io

import pytest
from django.core.management import call_command
from django.tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

import rules
from scorekeeper import services
from scorekeeper.models import Club, Game, Membership, Player, Recount, Result, Role
from scorekeeper.services import ratings
from scorekeeper.services.tasks import recounts_queue_again
from tests.factories import (
    built_once,
    finish_game,
    make_club,
    make_game,
    make_player,
    make_user,
    run_tasks,
)

# slow: finished tables played through the services.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _rounds(out_seat: int, seats: int) -> list[tuple[int, list[int]]]:
    """Seven rounds that seat `out_seat` goes out of, the others scoring by their seat."""
    return [(out_seat, [5 * (n + 1) for n in range(seats - 1)])] * 7


def _ratings() -> dict:
    return {
        (result.game_id, result.player_id): tuple(getattr(result, f) for f in ratings.RATING_FIELDS)
        for result in Result.objects.all()
    }


@pytest.fixture(scope="module")
def built_league(django_db_setup, django_db_blocker):
    """The league's ids, built once for the module's tests (28 rounds through the services)."""
    with built_once(django_db_blocker):
        club = make_club()
        players = [make_player(club, name) for name in ["Ann", "Ben", "Cat", "Dan", "Eve"]]
        games = []
        seatings = [players[:4], players[1:], players[:3], [players[4], *players[:3]]]
        for n, seated in enumerate(seatings):
            game = make_game(club, seated=seated)
            games.append(finish_game(game, _rounds(n % len(seated), len(seated))))
        yield club.pk, [player.pk for player in players], [game.pk for game in games]


@pytest.fixture
def league(built_league):
    """Four tables among five players, finished in turn; read afresh for the test (what an
    earlier test changed was undone in the database)."""
    club, players, games = built_league
    return (
        Club.objects.get(pk=club),
        [Player.objects.get(pk=pk) for pk in players],
        [Game.objects.get(pk=pk) for pk in games],
    )


def test_finishing_a_table_writes_its_places_and_ratings(league):
    club, players, games = league
    first = {result.player.name: result for result in games[0].results.select_related("player")}
    assert {name: result.place for name, result in first.items()} == {
        "Ann": 1,
        "Ben": 2,
        "Cat": 3,
        "Dan": 4,
    }
    assert first["Ann"].total == 0 and first["Ben"].total == 35 and first["Dan"].total == 105
    assert first["Ann"].rounds == 7 and first["Ann"].rounds_won == 7
    assert first["Ann"].rating > first["Ben"].rating > first["Cat"].rating > first["Dan"].rating
    assert first["Ann"].rating_before == pytest.approx(0)
    assert first["Ann"].trend == first["Ann"].rating - first["Ann"].rating_before
    assert Result.objects.count() == 4 + 4 + 3 + 4


def test_replaying_every_rating_from_scratch_gives_what_the_updates_gave(league):
    club, _, _ = league
    incremental = _ratings()
    Result.objects.update(mu=0, sigma=1, rating=0, rating_before=0, trend=0)
    assert ratings.ratings_replay(club_id=club.pk) == len(incremental)
    assert _ratings() == incremental


def test_editing_a_finished_round_rerates_that_table_and_every_later_one(league):
    club, players, games = league
    before = _ratings()
    second = games[1]
    round_ = second.rounds.get(number=1)
    seats = list(second.seats.all())
    # Cat (seat 1) went out of every round; now Eve (seat 3) did in contract 1, Ben holds 200.
    services.round_edit(
        game=second,
        version=second.version,
        round_=round_,
        went_out=seats[3],
        entries={
            seats[0].pk: rules.HandEntry(points=200),
            seats[1].pk: rules.HandEntry(points=5),
            seats[2].pk: rules.HandEntry(points=10),
        },
        user=second.created_by,
    )
    # Its places and ratings are rewritten at once; the later tables' ratings by a worker.
    assert Recount.objects.filter(club=club).exists()
    waiting = _ratings()
    assert {key: value for key, value in waiting.items() if key[0] != second.pk} == {
        key: value for key, value in before.items() if key[0] != second.pk
    }
    assert run_tasks() == 1
    assert not Recount.objects.exists()
    after = _ratings()
    assert {k: v for k, v in after.items() if k[0] == second.pk} == {
        k: v for k, v in waiting.items() if k[0] == second.pk
    }
    changed = {game_id for (game_id, _), value in after.items() if before[game_id, _] != value}
    assert changed == {games[1].pk, games[2].pk, games[3].pk}
    ben = Result.objects.get(game=second, player=players[1])
    assert ben.total == 200 + 5 * 6 and ben.place == 4
    Result.objects.update(mu=0, sigma=1, rating=0, rating_before=0, trend=0)
    ratings.ratings_replay(club_id=club.pk)
    assert _ratings() == after


def test_undoing_a_tables_last_save_takes_its_results_away_and_rerates_the_later_ones(league):
    club, players, games = league
    before = _ratings()
    third = games[2]
    # Undo its last save: the table is no longer finished.
    services.action_undo(game=third, version=third.version, user=third.created_by)
    third.refresh_from_db()
    assert third.finished_at is None
    assert not third.results.exists()
    assert run_tasks() == 1
    after = _ratings()
    assert {game_id for game_id, _ in after} == {games[0].pk, games[1].pk, games[3].pk}
    assert {k: v for k, v in after.items() if k[0] != games[3].pk} == {
        k: v for k, v in before.items() if k[0] in (games[0].pk, games[1].pk)
    }
    assert all(after[k] != before[k] for k in after if k[0] == games[3].pk)
    Result.objects.update(mu=0, sigma=1, rating=0, rating_before=0, trend=0)
    ratings.ratings_replay(club_id=club.pk)
    assert _ratings() == after
    # Saved again, it finishes last now, after table 4.
    seats = list(third.seats.all())
    services.round_score(
        game=third,
        version=third.version,
        entries={
            seats[0].pk: rules.HandEntry(points=5),
            seats[1].pk: rules.HandEntry(points=10),
        },
        user=third.created_by,
    )
    assert Result.objects.filter(game=third).count() == 3
    # The latest table now: rated at once, nothing left for a worker.
    assert not Recount.objects.exists()
    assert _ratings()[games[3].pk, players[4].pk] == after[games[3].pk, players[4].pk]


def test_a_shared_place_is_marked_and_rated_as_a_tie():
    game = make_game(players=3)
    finish_game(game, [(0, [10, 10])] * 7)
    results = {result.player_id: result for result in game.results.all()}
    seats = list(game.seats.all())
    second, third = results[seats[1].player_id], results[seats[2].player_id]
    assert (second.place, third.place) == (2, 2)
    assert second.place_shared and third.place_shared
    assert not results[seats[0].player_id].place_shared
    assert (second.mu, second.sigma) == (third.mu, third.sigma)


def test_the_trend_is_the_change_over_the_last_five_tables():
    club = make_club()
    seated = [make_player(club) for _ in range(3)]
    for _ in range(7):
        finish_game(make_game(club, seated=seated), _rounds(0, 3))
    results = list(Result.objects.filter(player=seated[0]).order_by("finished_at", "game_id"))
    assert results[-1].trend == pytest.approx(results[-1].rating - results[-5].rating_before)
    assert results[3].trend == pytest.approx(results[3].rating - 0)


def test_rebuilding_from_the_rounds_gives_exactly_what_the_services_kept(league):
    fields = ["place", "place_shared", "total", "rounds", "rounds_won", "may_i_used"]
    fields += ratings.RATING_FIELDS
    kept = set(Result.objects.values_list("game", "player", *fields))
    Result.objects.all().delete()
    call_command("results_rebuild", stdout=io.StringIO())
    assert set(Result.objects.values_list("game", "player", *fields)) == kept


def _edit_first_round(game, points: int = 200):
    """Someone else went out of the table's first contract, and the first seat held `points`."""
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


def _from_scratch() -> dict:
    """The ratings a replay from scratch gives (the stored ones are put back afterwards)."""
    kept = _ratings()
    Result.objects.update(mu=0, sigma=1, rating=0, rating_before=0, trend=0)
    ratings.ratings_replay(club_id=Result.objects.values_list("club", flat=True).first())
    replayed = _ratings()
    for (game_id, player_id), values in kept.items():
        Result.objects.filter(game_id=game_id, player_id=player_id).update(
            **dict(zip(ratings.RATING_FIELDS, values, strict=True))
        )
    return replayed


def test_changing_the_latest_table_rerates_it_at_once_and_queues_nothing(league):
    _, _, games = league
    _edit_first_round(games[3])
    assert not Recount.objects.exists() and not DBTaskResult.objects.exists()
    assert _ratings() == _from_scratch()


def test_changes_while_a_recount_waits_widen_it_to_the_earliest(league):
    club, _, games = league
    _edit_first_round(games[2])
    _edit_first_round(games[1], points=150)
    _edit_first_round(games[2], points=90)
    recount = Recount.objects.get()
    assert recount.since == (games[1].finished_at, games[1].pk) and not recount.rebuild
    assert DBTaskResult.objects.count() == 1  # one task for the three changes

    assert run_tasks() == 1

    assert not Recount.objects.exists()
    assert _ratings() == _from_scratch()


def test_a_recount_run_twice_changes_nothing(league):
    _, _, games = league
    _edit_first_round(games[0])
    recount = Recount.objects.get()
    run_tasks()
    recounted = _ratings()
    again = services.recount_run.enqueue(recount.pk)
    assert run_tasks() == 1
    result = services.recount_run.get_result(again.id)
    assert result.return_value == "already recounted, or the club is gone"
    assert _ratings() == recounted == _from_scratch()


def test_the_owners_recount_rewrites_every_result_from_the_rounds(league):
    club, _, _ = league
    kept = set(Result.objects.values_list("game", "player", "place", "total", "rating"))
    Result.objects.all().delete()  # as for tables finished before results were kept
    scorer = make_user()
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    with pytest.raises(services.RoleRefused):
        services.recount_queue(club=club, user=scorer)
    assert not Recount.objects.exists()

    recount = services.recount_queue(club=club, user=club.owner())

    assert recount.rebuild and recount.since is None and not Result.objects.exists()
    assert run_tasks() == 1
    assert set(Result.objects.values_list("game", "player", "place", "total", "rating")) == kept
    assert not Recount.objects.exists()


def test_a_rebuild_by_the_command_ends_any_recount_waiting(league):
    _, _, games = league
    _edit_first_round(games[0])
    call_command("results_rebuild", stdout=io.StringIO())
    assert not Recount.objects.exists()
    assert run_tasks() == 1  # its task finds it done
    assert _ratings() == _from_scratch()


def test_a_recount_whose_task_failed_is_queued_again(league):
    _, _, games = league
    _edit_first_round(games[0])
    assert recounts_queue_again() == 0  # its task is waiting for a worker
    # The worker's database went away while it recounted: the task failed, the recount waits.
    DBTaskResult.objects.update(status=TaskResultStatus.FAILED)

    assert recounts_queue_again() == 1

    assert run_tasks() == 1
    assert not Recount.objects.exists()
    assert _ratings() == _from_scratch()
