import io

import pytest
from django.core.management import call_command

import rules
from scorekeeper import services
from scorekeeper.models import Result
from scorekeeper.services import ratings
from tests.factories import finish_game, make_club, make_game, make_player

pytestmark = pytest.mark.django_db


def _rounds(out_seat: int, seats: int) -> list[tuple[int, list[int]]]:
    """Seven rounds that seat `out_seat` goes out of, the others scoring by their seat."""
    return [(out_seat, [5 * (n + 1) for n in range(seats - 1)])] * 7


def _ratings() -> dict:
    return {
        (result.game_id, result.player_id): tuple(getattr(result, f) for f in ratings.RATING_FIELDS)
        for result in Result.objects.all()
    }


@pytest.fixture
def league():
    """Four tables among five players, finished in turn."""
    club = make_club()
    players = [make_player(club, name) for name in ["Ann", "Ben", "Cat", "Dan", "Eve"]]
    games = []
    for n, seated in enumerate([players[:4], players[1:], players[:3], [players[4], *players[:3]]]):
        game = make_game(club, seated=seated)
        games.append(finish_game(game, _rounds(n % len(seated), len(seated))))
    return club, players, games


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
    after = _ratings()
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
