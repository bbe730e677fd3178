"""The health check a platform polls, and the deeper one of the task queue a monitor polls
(scorekeeper/views/health.py)."""

from datetime import datetime, timedelta

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, connections
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper import services
from scorekeeper.forms import photo_check
from scorekeeper.models import Photo
from scorekeeper.selectors.tasks import HEARTBEAT, UPLOAD_READ
from scorekeeper.services.photos import upload_read
from scorekeeper.services.tasks import worker_heartbeat
from tests.factories import PHOTO, run_tasks

pytestmark = pytest.mark.django_db


def broken_database():
    """A real connection to a database that is not there: a missing folder, a closed port."""
    broken = {**connection.settings_dict, "NAME": "/nonexistent/folder/scorekeeper.sqlite3"}
    if connection.vendor != "sqlite":
        broken.update(HOST="127.0.0.1", PORT="1")
    return connections["default"].__class__(broken, alias="default")


def test_healthz_answers_200_when_the_database_answers(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"database": "ok"}


def test_healthz_answers_503_when_the_database_does_not(client, caplog):
    working = connections["default"]
    connections["default"] = broken_database()
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
    assert client.post(reverse("healthz_tasks")).status_code == 405


def test_the_task_check_says_ok_when_nothing_waits(client, django_assert_num_queries):
    cache.delete(HEARTBEAT)  # a worker process of another test may have left one: no model
    # Two queries and the cache's (its table, without Redis).
    with django_assert_num_queries(3):
        response = client.get(reverse("healthz_tasks"))
    assert response.status_code == 200
    assert response["Cache-Control"].startswith("max-age=0")
    assert response.json() == {
        "database": "ok",
        "tasks": "ok",
        "oldest_waiting_task_seconds": None,
        "oldest_waiting_photo_seconds": None,
        "last_worker_heartbeat": None,
        "last_worker_heartbeat_seconds": None,
    }


def test_the_task_check_says_degraded_when_a_photo_waits_over_a_minute(client, game, media):
    upload = photo_check(SimpleUploadedFile("hand.jpg", PHOTO.read_bytes()))
    services.photo_record(game=game, photo=upload, user=game.created_by)
    worker_heartbeat(worker_id="w1")
    waiting = client.get(reverse("healthz_tasks")).json()
    assert waiting["tasks"] == "ok"  # a photo just taken waits for a worker, as it should
    assert 0 <= waiting["oldest_waiting_task_seconds"] < 5
    assert 0 <= waiting["oldest_waiting_photo_seconds"] < 5
    assert 0 <= waiting["last_worker_heartbeat_seconds"] < 5
    beat = datetime.fromisoformat(waiting["last_worker_heartbeat"])
    assert timezone.now() - beat < timedelta(seconds=5)

    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(minutes=3))
    Photo.objects.update(created_at=timezone.now() - timedelta(minutes=2))
    response = client.get(reverse("healthz_tasks"))
    assert response.status_code == 503
    degraded = response.json()
    assert degraded["tasks"] == "degraded"
    assert 179 < degraded["oldest_waiting_task_seconds"] < 185
    assert 119 < degraded["oldest_waiting_photo_seconds"] < 125

    run_tasks()
    read = client.get(reverse("healthz_tasks"))
    assert read.status_code == 200 and read.json()["oldest_waiting_photo_seconds"] is None


def test_a_standalone_checker_photo_waiting_counts_as_a_photo(client, member, media):
    assert upload_read.module_path == UPLOAD_READ
    upload = photo_check(SimpleUploadedFile("hand.jpg", PHOTO.read_bytes()))
    services.upload_keep(photo=upload, user=member)
    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(minutes=2))
    response = client.get(reverse("healthz_tasks"))
    assert response.status_code == 503 and response.json()["tasks"] == "degraded"


def test_the_task_check_answers_503_when_the_database_does_not(client, caplog):
    working = connections["default"]
    connections["default"] = broken_database()
    try:
        response = client.get(reverse("healthz_tasks"))
    finally:
        connections["default"].close()
        connections["default"] = working
    assert response.status_code == 503
    assert response.json() == {"database": "unavailable"}
    assert "healthz: database unavailable: OperationalError" in caplog.text


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
