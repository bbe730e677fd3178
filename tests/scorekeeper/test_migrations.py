"""Data checks the migrations make (scorekeeper/migrations/)."""

import importlib

import pytest
from django.apps import apps

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
