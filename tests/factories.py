"""Small builders of test data, made in code (no fixtures files)."""

from itertools import count

from django.contrib.auth import get_user_model
from django.urls import reverse

import rules
from scorekeeper import services
from scorekeeper.models import Club, Game, Player, Seat

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
    players: int | list[Player] = 4,
    *,
    user=None,
    first_dealer: int = 0,
) -> Game:
    """A table of `players` new players, or of the players given, in that order."""
    club = club or make_club(user)
    user = user or club.memberships.first().user
    seated = players if isinstance(players, list) else [make_player(club) for _ in range(players)]
    return services.game_start(
        club=club,
        user=user,
        players=seated,
        first_dealer=first_dealer,
        season=club.seasons.first(),
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


def seats(game: Game) -> list[Seat]:
    return list(game.seats.order_by("position").select_related("player"))


def act(service, game: Game, **kwargs):
    """Call a table service as the table's creator would, from an up-to-date screen."""
    game.refresh_from_db()
    return service(game=game, version=game.version, user=game.created_by, **kwargs)


def make_tables(user, *, club: str, players: list[str]) -> dict[str, str]:
    """A club with five players and three tables: one in play (a May I?, melds and Shanghai calls
    on the table), one whose round is being scored, one finished. Returns each page type's URL."""
    club = make_club(user, name=club)
    seated = [make_player(club, name) for name in players]

    def start():
        return make_game(club, seated, user=user)

    playing = start()
    ann, ben, cleo, dev, eve = seats(playing)
    act(services.may_i_spend, playing, seat=ben)
    act(services.may_i_spend, playing, seat=eve)
    act(services.may_i_spend, playing, seat=eve)
    books = [rules.parse_cards("7H 7S 7D"), rules.parse_cards("KC KD JK")]
    act(services.melds_record, playing, seat=dev, melds=books)
    act(services.shanghai_record, playing, seat=cleo, discarder=dev)
    act(services.shanghai_record, playing, seat=cleo, discarder=eve)

    scoring = start()
    act(services.round_record_went_out, scoring, seat=seats(scoring)[2])

    finished = start()
    for number in range(7):
        play_round(finished, went_out=number % 5, points=[5, 10, 15, 20])
    profile = club.profiles.first()
    return {
        "home": "/",
        "club": club.get_absolute_url(),
        "new table": reverse("game_new", args=[club.pk]),
        "round screen": playing.get_absolute_url(),
        "score entry": scoring.get_absolute_url(),
        "game over": finished.get_absolute_url(),
        "round edit": reverse("round_edit", args=[finished.pk, 1]),
        "history": reverse("history", args=[playing.pk]),
        "checker": reverse("checker"),
        "table checker": reverse("table_check", args=[playing.pk]),
        "rules summary": reverse("rules_summary", args=[profile.pk]),
        "profile form": reverse("profile_edit", args=[profile.pk]),
        "account": reverse("account"),
    }
