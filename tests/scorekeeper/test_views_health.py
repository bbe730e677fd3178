"""The health check a platform polls (scorekeeper/views/health.py)."""

import pytest
from django.db import connection, connections
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_healthz_answers_200_when_the_database_answers(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"database": "ok"}


def test_healthz_answers_503_when_the_database_does_not(client, caplog):
    # A real connection to a database that is not there: a missing folder, a closed port.
    broken = {**connection.settings_dict, "NAME": "/nonexistent/folder/scorekeeper.sqlite3"}
    if connection.vendor != "sqlite":
        broken.update(HOST="127.0.0.1", PORT="1")
    working = connections["default"]
    connections["default"] = working.__class__(broken, alias="default")
    try:
        response = client.get(reverse("healthz"))
    finally:
        connections["default"].close()
        connections["default"] = working
    assert response.status_code == 503
    # Anyone may ask: the answer names no host, port or file; the log says why.
    assert response.json() == {"database": "unavailable"}
    assert "healthz: database unavailable: OperationalError" in caplog.text


def test_healthz_refuses_post(client):
    assert client.post(reverse("healthz")).status_code == 405
