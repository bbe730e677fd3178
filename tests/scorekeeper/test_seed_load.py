import json

import pytest
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command

from scorekeeper.models import Game, Membership, TableLink

# slow: seeds a club night.
pytestmark = pytest.mark.slow


@pytest.mark.django_db
def test_seed_load_makes_open_tables_ten_a_club_with_two_member_tablets_and_a_tv_each(tmp_path):
    out = tmp_path / "tables.json"
    call_command("seed_load", "--tables", "12", "--out", str(out))
    seeded = json.loads(out.read_text())
    tables = seeded["tables"]
    assert len(tables) == 12
    assert len({table["club"] for table in tables}) == 2
    for table in tables:
        game = Game.objects.get(pk=table["table"], club_id=table["club"])
        assert game.finished_at is None
        assert [seat.pk for seat in game.seats.order_by("position")] == table["seats"]
        assert TableLink.objects.get(token=table["tv"]).game == game
        for username in table["tablets"]:
            user = get_user_model().objects.get(username=username)
            assert user.check_password(seeded["password"])
            assert Membership.objects.filter(user=user, club_id=table["club"]).exists()
            for key in seeded["sessions"][username]:
                session = SessionStore(session_key=key)
                assert session[SESSION_KEY] == str(user.pk)
