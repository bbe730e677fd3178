"""The service worker's script, served from the site's root (scorekeeper/views/offline.py)."""

import json
from pathlib import Path

import pytest

from tests.factories import make_game
from tests.scorekeeper.test_spanish import english_left, english_words

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


def test_the_service_worker_says_its_pages_in_the_requests_language(client):
    english = client.get("/sw.js").content.decode()
    response = client.get("/sw.js", headers={"accept-language": "es"})
    spanish = response.content.decode()
    assert response["Content-Language"] == "es"
    words = json.loads(spanish.split("const WORDS = ", 1)[1].split(";\n", 1)[0])
    assert words["lang"] == "es"
    assert words["noConnection"] == "Sin conexión" and words["tryAgain"] == "Vuelve a intentarlo"
    english_left_over = english_left(f"<p>{' '.join(words.values())}</p>", english_words())
    assert english_left_over == []
    # Nothing but the words changes.
    assert spanish.replace(spanish.split("const WORDS = ", 1)[1].split(";\n")[0], "") == (
        english.replace(english.split("const WORDS = ", 1)[1].split(";\n")[0], "")
    )
