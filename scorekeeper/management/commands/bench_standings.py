"""Time the standings, a player page, the club page and the new-table page over a throw-away
club of N tables (and P players: 500 is the most a club keeps), or over clubs of several sizes
in turn, to see how each page grows with the club's history.

    python manage.py bench_standings --games 1000 [--players 500]
    python manage.py bench_standings --sizes 1000 10000

Seeds a club of twelve players (or P) with N finished five-player tables of seven rounds (in a
SQLite file in a temporary folder, unless DATABASE_URL is set; everything is rolled back at the
end, each size's club before the next is seeded), renders each page through the full Django
stack with the test client, and prints a table; the last line is one JSON object: the pages'
figures, or with --sizes, {"players": P, "sizes": [the figures of each size, with "games"]}."""

import json
import os
import random
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Club, Game, Hand, Result, Round, Seat
from scorekeeper.selectors.boards import finished_board
from scorekeeper.services.ratings import ratings_rate, results_of_board
from scorekeeper.services.tallies import tallies_change

PLAYERS = 12
SEATS = 5
CHUNK = 500
PAGES = ("standings", "player", "club", "new table")


class Rollback(Exception):
    """Raised to roll back everything the bench wrote."""


def club_seed(*, games: int, user, players: int = PLAYERS, seed: int = 0) -> Club:
    """A club of `players` with `games` finished five-player tables of the seed rules' seven
    rounds, written in bulk (the services would take minutes at 10,000 tables), with the
    results, ratings, head to head and points left the services would have kept."""
    dice = random.Random(seed)
    club = services.club_create(user=user, name="Bench club")
    roster = [
        services.player_create(user=club.owner(), club=club, name=f"Player {n + 1}")
        for n in range(players)
    ]
    season, profile = club.seasons.get(), club.profiles.get()
    house_rules = profile.house_rules
    start = timezone.now() - timedelta(minutes=games + 1)
    results = []
    for first in range(0, games, CHUNK):
        tables = Game.objects.bulk_create(
            Game(
                club=club,
                season=season,
                profile=profile,
                rules=house_rules.to_dict(),
                first_dealer=number % SEATS,
                created_by=user,
                finished_at=start + timedelta(minutes=number),
            )
            for number in range(first, min(first + CHUNK, games))
        )
        seats = Seat.objects.bulk_create(
            Seat(game=game, player=player, position=position)
            for game in tables
            for position, player in enumerate(dice.sample(roster, SEATS))
        )
        by_game = [seats[n : n + SEATS] for n in range(0, len(seats), SEATS)]
        seats_of = {game.pk: table for game, table in zip(tables, by_game, strict=True)}
        rounds = Round.objects.bulk_create(
            Round(
                game=game,
                number=number,
                went_out=dice.choice(table),
                finished_at=game.finished_at,
            )
            for game, table in zip(tables, by_game, strict=True)
            for number in range(1, len(house_rules.contracts) + 1)
        )
        hands = [
            Hand(
                round=round_,
                seat=seat,
                may_i_used=dice.choice([0, 0, 0, 1, 2]),
                went_down=seat.pk == round_.went_out_id or dice.random() < 0.5,
                points=0 if seat.pk == round_.went_out_id else 5 * dice.randint(1, 30),
            )
            for round_ in rounds
            for seat in seats_of[round_.game_id]
        ]
        Hand.objects.bulk_create(hands, batch_size=2000)
        results.extend(_results(tables, by_game, rounds, hands))
    ratings_rate(results)
    Result.objects.bulk_create(results, batch_size=2000)
    tallies_change(added=results)
    return club


def _results(tables, by_game, rounds, hands) -> list[Result]:
    """Each table's results, as the services add them up from its board."""
    hands_of = {}  # by round id
    for hand in hands:
        hands_of.setdefault(hand.round_id, []).append(hand)
    rounds_of = {}  # by table id, in contract order
    for round_ in rounds:
        rounds_of.setdefault(round_.game_id, []).append(round_)
    results = []
    for game, table in zip(tables, by_game, strict=True):
        played = rounds_of[game.pk]
        seated = {
            round_.pk: {hand.seat_id: hand for hand in hands_of[round_.pk]} for round_ in played
        }
        board = finished_board(game, seats=table, rounds=played, hands=seated)
        results.extend(results_of_board(board, hands=hands_of, claims={}))
    return results


class Command(BaseCommand):
    help = "Time the standings, a player page and the club page over N finished tables."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1000, help="finished tables to seed")
        parser.add_argument(
            "--sizes",
            type=int,
            nargs="+",
            metavar="GAMES",
            help="bench clubs of each of these many tables in turn (instead of --games)",
        )
        parser.add_argument("--runs", type=int, default=15, help="timed renders of each page")
        parser.add_argument("--players", type=int, default=PLAYERS, help="players of the club")

    def handle(self, *args, games: int, sizes, runs: int, players: int, **options):
        if not os.environ.get("DATABASE_URL"):
            folder = tempfile.mkdtemp(prefix="bench_standings_")
            connections.close_all()
            settings.DATABASES["default"]["NAME"] = Path(folder) / "bench.sqlite3"
            connections["default"].settings_dict["NAME"] = settings.DATABASES["default"]["NAME"]
            call_command("migrate", verbosity=0)
        benched = []
        for size in sizes or [games]:
            # Each size seeds its own club, rolled back before the next.
            try:
                with transaction.atomic():
                    benched.append({"games": size, **self._bench(size, runs, players)})
                    raise Rollback
            except Rollback:
                pass
        several = len(benched) > 1
        self.stdout.write(
            f"{'page':<10} {'median ms':>10} {'queries':>8}"
            + (f" {'tables':>8}" if several else "")
        )
        for page in PAGES:
            for figures in benched:
                row = figures[page]
                self.stdout.write(
                    f"{page:<10} {row['median_ms']:>10} {row['queries']:>8}"
                    + (f" {figures['games']:>8}" if several else "")
                )
        if sizes is None:
            line = {"games": games, "players": players, **benched[0]}
        else:
            line = {"players": players, "sizes": benched}
        self.stdout.write(json.dumps(line))

    def _bench(self, games: int, runs: int, players: int) -> dict:
        began = time.perf_counter()
        user = get_user_model().objects.create_user(username="bench-standings")
        club = club_seed(games=games, user=user, players=players)
        self.stderr.write(f"seeded {games} tables in {time.perf_counter() - began:.1f} s")
        client = Client(HTTP_HOST="localhost")
        client.force_login(user)
        pages = {
            "standings": club.seasons.get().get_absolute_url(),
            "player": club.players.first().get_absolute_url(),
            "club": club.get_absolute_url(),
            "new table": reverse("game_new", args=[club.pk]),
        }
        figures = {}
        for page, url in pages.items():
            client.get(url, secure=True)  # warm up: templates, caches
            timings = []
            for _ in range(runs):
                with CaptureQueriesContext(connection) as queries:
                    began = time.perf_counter()
                    response = client.get(url, secure=True)
                    timings.append((time.perf_counter() - began) * 1000)
                assert response.status_code == 200, (url, response.status_code)
            figures[page] = {
                "median_ms": round(statistics.median(timings), 1),
                "queries": len(queries),
            }
        return figures
