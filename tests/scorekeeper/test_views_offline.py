"""The service worker's script, served from the site's root (scorekeeper/views/offline.py)."""

from pathlib import Path

import pytest

from tests.factories import make_game

pytestmark = pytest.mark.django_db

SOURCE = Path(__file__).parents[2] / "static" / "js" / "sw.js"


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_service_worker_is_served_at_the_root_to_anyone_and_never_cached(client, signed_in):
    if signed_in:
        client.force_login(make_game().club.memberships.get().user)
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert "no-cache" in response["Cache-Control"]
    assert response.content.decode() == SOURCE.read_text(encoding="utf-8")
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_service_worker_refuses_post(client):
    assert client.post("/sw.js").status_code == 405
