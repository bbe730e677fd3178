"""The health check a platform polls (scorekeeper/views/health.py)."""

from datetime import datetime, timedelta

import pytest
from django.db import connection, connections
from django.urls import reverse
from django.utils import timezone

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


def test_security_txt_says_whom_to_tell_and_until_when(client, settings):
    settings.SECURITY_CONTACT = "security@example.org"
    response = client.get("/.well-known/security.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    fields = dict(line.split(": ", 1) for line in response.content.decode().splitlines())
    assert fields["Contact"] == "mailto:security@example.org"
    expires = datetime.fromisoformat(fields["Expires"])
    assert timezone.now() + timedelta(days=300) < expires < timezone.now() + timedelta(days=366)
    assert fields["Canonical"] == "http://testserver/.well-known/security.txt"
    assert client.post("/.well-known/security.txt").status_code == 405
