"""`manage.py seed_demo` (scorekeeper/management/commands/seed_demo.py)."""

import pytest
from django.core.management import call_command

from scorekeeper.models import Club, Game

# slow: seeds the demo.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_seed_demo_makes_a_lived_in_club_once():
    call_command("seed_demo")
    club = Club.objects.get(name="Thursday Night Shanghai")
    assert club.players.count() == 5
    assert Game.objects.finished().filter(club=club).count() == 3
    assert Game.objects.in_progress().filter(club=club).count() == 1
    call_command("seed_demo")
    assert Club.objects.count() == 1
