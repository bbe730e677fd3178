"""Seed a club night for the load test: N tables of four players, ten tables a club, each table
with its two tablets' accounts (members of its club), written through the services.

    python manage.py seed_load --tables 20 --out /tmp/tables.json

The JSON lists, per table, its id, its club and season, the two accounts, the seats and players
and its TV link, which is all the load generator needs to play it through the HTTP forms and
follow it on screens; and for each account, two sessions already logged in (its tablet and one
more screen), as devices that logged in earlier in the evening. A password hash takes most of a
second here, so a hundred devices logging in at once would measure the hash, not the night: a
few log in for real."""

import json
from importlib import import_module
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.http import HttpRequest

from scorekeeper import services

PASSWORD = "load-test-tablet-password"
TABLES_A_CLUB = 10
NAMES = ("Ann", "Ben", "Cat", "Dan")
SESSIONS_AN_ACCOUNT = 2


def session_logged_in(user) -> str:
    """The key of a new session logged in as `user`, as the login form would leave it."""
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore()
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session.save()
    return request.session.session_key


class Command(BaseCommand):
    help = "Seed clubs and open tables for the load test; write what was made as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, required=True)
        parser.add_argument("--out", required=True, help="where to write the tables as JSON")
        parser.add_argument("--prefix", default="load", help="usernames start with this")

    def handle(self, *args, tables, out, prefix, **options):
        # One password hash for every account: hashing it per account takes most of a minute.
        password = make_password(PASSWORD)
        users = get_user_model().objects.bulk_create(
            get_user_model()(username=f"{prefix}-{n}-{tablet}", password=password)
            for n in range(tables)
            for tablet in "ab"
        )
        made = []
        for n in range(tables):
            tablet_a, tablet_b = users[2 * n], users[2 * n + 1]
            if n % TABLES_A_CLUB == 0:
                club = services.club_create(user=tablet_a, name=f"Club night {n // TABLES_A_CLUB}")
                season, profile = club.seasons.get(), club.profiles.get()
            else:
                services.club_join(user=tablet_a, invite_code=club.invite_code)
            services.club_join(user=tablet_b, invite_code=club.invite_code)
            players = [
                services.player_create(user=club.owner(), club=club, name=f"{name} {n}")
                for name in NAMES
            ]
            game = services.game_start(
                club=club,
                user=tablet_a,
                players=players,
                first_dealer=n % len(players),
                season=season,
                profile=profile,
            )
            tv = services.tv_link_create(game=game, user=tablet_a)
            made.append(
                {
                    "table": game.pk,
                    "club": club.pk,
                    "season": season.pk,
                    "tablets": [tablet_a.username, tablet_b.username],
                    "seats": [seat.pk for seat in game.seats.order_by("position")],
                    "players": [player.pk for player in players],
                    "tv": tv.token,
                }
            )
        sessions = {
            user.username: [session_logged_in(user) for _ in range(SESSIONS_AN_ACCOUNT)]
            for user in users
        }
        seeded = {"password": PASSWORD, "tables": made, "sessions": sessions}
        Path(out).write_text(json.dumps(seeded, indent=1))
        clubs = -(-tables // TABLES_A_CLUB)
        self.stdout.write(f"Seeded {tables} tables in {clubs} clubs.")
