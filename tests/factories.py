"""Small builders of test data, made in code (no fixtures files)."""

from itertools import count

from django.contrib.auth import get_user_model

import rules
from scorekeeper import services
from scorekeeper.models import Club, Game, Player, Season

_serial = count(1)


def make_user(username: str | None = None, password: str = "a-long-test-password"):
    username = username or f"user{next(_serial)}"
    return get_user_model().objects.create_user(username=username, password=password)


def make_club(user=None, name: str | None = None) -> Club:
    return services.club_create(user=user or make_user(), name=name or f"Club {next(_serial)}")


def make_player(club: Club, name: str | None = None) -> Player:
    return services.player_create(club=club, name=name or f"Player {next(_serial)}")


def make_game(
    club: Club | None = None,
    players: int = 4,
    *,
    user=None,
    first_dealer: int = 0,
    seated: list[Player] | None = None,
    season: Season | None = None,
) -> Game:
    club = club or make_club(user)
    user = user or club.memberships.first().user
    seated = seated or [make_player(club) for _ in range(players)]
    return services.game_start(
        club=club,
        user=user,
        players=seated,
        first_dealer=first_dealer,
        season=season or club.seasons.first(),
        profile=club.profiles.first(),
    )


def play_round(game: Game, *, went_out: int = 0, points: list[int] | None = None, user=None):
    """Play the current round: seat `went_out` goes out, the others score `points` in seat order."""
    seats = list(game.seats.all())
    user = user or game.created_by
    game.refresh_from_db()
    services.round_record_went_out(game=game, version=game.version, seat=seats[went_out], user=user)
    others = [seat for seat in seats if seat.position != went_out]
    points = points or [10 * (n + 1) for n in range(len(others))]
    entries = {
        seat.pk: rules.HandEntry(points=value) for seat, value in zip(others, points, strict=True)
    }
    services.round_score(game=game, version=game.version, entries=entries, user=user)
    return game


def finish_game(game: Game, rounds: list[tuple[int, list[int]]] | None = None) -> Game:
    """Play every contract left: each (went_out, points) plays one round as `play_round` does;
    by default seat 0 goes out of every round and the others score 10, 20, 30..."""
    left = game.contract_count - game.rounds.filter(finished_at__isnull=False).count()
    for went_out, points in rounds or [(0, None)] * left:
        play_round(game, went_out=went_out, points=points)
    game.refresh_from_db()
    assert game.finished_at is not None
    return game
