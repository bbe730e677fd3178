import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

import rules
from scorekeeper import services
from scorekeeper.models import Club

DEMO_CLUB = "Thursday Night Shanghai"
DEMO_PLAYERS = ["Ann", "Ben", "Cleo", "Dev", "Ema"]
DEMO_HANDS = ["K 7", "3 4 5", "JK", "A Q", "9", "8 8 2", "10 J", "6", "A", "Q Q K JK"]


class Command(BaseCommand):
    help = "Create a demo club with players, a season, three finished tables and one in progress."

    def add_arguments(self, parser):
        parser.add_argument("--password", default="demo-table", help="password of the demo user")

    @transaction.atomic
    def handle(self, *args, password, **options):
        if Club.objects.filter(name=DEMO_CLUB).exists():
            self.stdout.write(f"{DEMO_CLUB} exists already: nothing to do.")
            return
        user, _ = get_user_model().objects.get_or_create(username="demo")
        user.set_password(password)
        user.save()
        club = services.club_create(user=user, name=DEMO_CLUB)
        players = [
            services.player_create(user=club.owner(), club=club, name=name) for name in DEMO_PLAYERS
        ]
        dice = random.Random(7)
        for game_number, rounds in enumerate([7, 7, 7, 3]):
            seated = dice.sample(players, k=dice.choice([3, 4, 5]))
            game = services.game_start(
                club=club,
                user=user,
                players=seated,
                first_dealer=game_number % len(seated),
                season=club.seasons.first(),
                profile=club.profiles.first(),
            )
            seats = list(game.seats.all())
            for _ in range(rounds):
                winner = dice.choice(seats)
                services.round_record_went_out(
                    game=game, version=game.version, seat=winner, user=user
                )
                entries = {
                    seat.pk: rules.HandEntry(
                        cards=tuple(rules.parse_ranks(dice.choice(DEMO_HANDS)))
                    )
                    for seat in seats
                    if seat != winner
                }
                services.round_score(game=game, version=game.version, entries=entries, user=user)
        self.stdout.write(self.style.SUCCESS(f"Created {DEMO_CLUB}. Log in as demo / {password}."))
