"""Data checks the migrations make (scorekeeper/migrations/)."""

import importlib
import os
import subprocess
import sys

import pytest
from django.apps import apps
from django.conf import settings

import rules
from scorekeeper.models import Game, RulesProfile
from tests.factories import make_game

pytestmark = pytest.mark.django_db

bounds = importlib.import_module("scorekeeper.migrations.0010_house_rules_in_bounds")


def test_rules_stored_beyond_a_real_table_stop_the_migration_and_are_named():
    game = make_game(players=4)
    profile = game.club.profiles.get()
    bounds.rules_out_of_bounds(apps)  # the seed rules are fine
    RulesProfile.objects.filter(pk=profile.pk).update(
        settings={**rules.HouseRules().to_dict(), "max_players": 12}
    )
    Game.objects.filter(pk=game.pk).update(rules={**game.rules, "may_i_limit": 9})
    with pytest.raises(RuntimeError) as refused:
        bounds.rules_out_of_bounds(apps)
    assert f"rules profile {profile.pk}: Most players must be at most 8." in str(refused.value)
    assert f"table {game.pk}: May I? per round must be at most 5." in str(refused.value)


@pytest.mark.slow  # a Django of its own, all the migrations
def test_the_migrations_build_a_new_database_that_matches_the_models(tmp_path):
    """The suite builds its test databases from the models (`--no-migrations`, the quicker
    way); this is where the migrations themselves are applied to an empty SQLite database, as
    `make run` does on a new machine (the suite on PostgreSQL in CI applies them there)."""
    environment = {**os.environ, "DJANGO_DATA_DIR": str(tmp_path), "DJANGO_DEBUG": "true"}
    environment.pop("DATABASE_URL", None)
    for command in (["migrate", "--noinput"], ["makemigrations", "--check", "--dry-run"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=settings.BASE_DIR,
            env=environment,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "scorekeeper.sqlite3").stat().st_size > 0
