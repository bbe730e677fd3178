"""The Procfile's worker (`manage.py task_workers`) as a platform runs it: real processes on the
test's database, one of them killed in the middle of reading a photo; a club import and a
recount run the same way."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from scorekeeper import services
from scorekeeper.forms import photo_check
from scorekeeper.models import ClubImport, ImportStatus, Photo, PhotoStatus, Recount
from scorekeeper.selectors import archive
from tests.factories import finish_game, make_game
from tools.pg_cluster import wait_for

# slow: the worker as processes.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

FAN = Path(__file__).resolve().parents[1] / "recognition" / "photos" / "win_016.jpg"


def database_url() -> str:
    """The URL of the database this test runs on (the test database, SQLite or PostgreSQL)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def workers(media: Path, *, stale_seconds: int = 120) -> subprocess.Popen:
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_DEBUG": "true",
        "DJANGO_MEDIA_ROOT": str(media),
        "DJANGO_TASK_STALE_SECONDS": str(stale_seconds),
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    return subprocess.Popen(
        [sys.executable, "manage.py", "task_workers", "--processes", "1", "--interval", "0.1"],
        cwd=settings.BASE_DIR,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def stop(process: subprocess.Popen, signum=signal.SIGTERM) -> str:
    family = [process.pid, *(p.pid for p in psutil.Process(process.pid).children(recursive=True))]
    if signum == signal.SIGKILL:
        for pid in family:  # the machine went away: the worker and the process running a task
            os.kill(pid, signal.SIGKILL)
    else:
        process.send_signal(signum)
    out, _ = process.communicate(timeout=30)
    return out


@pytest.fixture
def photo(media):
    game = make_game(players=3)
    upload = photo_check(SimpleUploadedFile("fan.jpg", FAN.read_bytes()))
    return services.photo_record(game=game, photo=upload, user=game.created_by)


def status(photo: Photo) -> str:
    photo.refresh_from_db()
    return photo.status


def test_the_workers_run_at_a_lower_priority_one_thread_each(media):
    process = workers(media)
    try:
        family = psutil.Process(process.pid)
        wait_for(lambda: family.children(), timeout=60, step=0.05)
        [reader] = family.children()
        # Each lowers its own as it starts; the upkeep, which costs little, keeps this one's.
        started_at = psutil.Process().nice()
        lowered = max(settings.TASK_NICENESS, started_at)
        wait_for(lambda: reader.nice() == lowered, timeout=60, step=0.05)
        assert family.nice() == started_at and settings.TASK_NICENESS == 10
        assert reader.environ()["OPENBLAS_NUM_THREADS"] == "1"
    finally:
        out = stop(process)
    assert process.returncode == 0, out


def test_a_worker_reads_a_queued_photo_and_stops_when_told(photo, media):
    process = workers(media)
    try:
        wait_for(lambda: status(photo) == PhotoStatus.READ, timeout=60)
    finally:
        out = stop(process)
    assert process.returncode == 0, out
    assert photo.detections
    assert [path for path in media.rglob("*") if path.is_file()] == [Path(photo.image.path)]


def test_a_task_whose_worker_was_killed_is_run_again_by_another_once(photo, media):
    first = workers(media)
    task = DBTaskResult.objects.get()
    try:
        wait_for(
            lambda: DBTaskResult.objects.get().status == TaskResultStatus.RUNNING,
            timeout=60,
            step=0.01,
        )
    finally:
        stop(first, signal.SIGKILL)
    task.refresh_from_db()
    assert task.status == TaskResultStatus.RUNNING  # its worker is gone: nobody will finish it
    assert status(photo) == PhotoStatus.READING

    second = workers(media, stale_seconds=2)
    try:
        wait_for(lambda: status(photo) == PhotoStatus.READ, timeout=60)
        out = ""
    finally:
        out = stop(second)
    assert "Queued again 1 task(s) whose worker vanished." in out
    task.refresh_from_db()
    assert task.status == TaskResultStatus.SUCCESSFUL and len(task.worker_ids) == 2
    # Read once: one file, the upload gone, whatever the first run had written.
    kept = [path for path in media.rglob("*") if path.is_file()]
    assert kept == [Path(photo.image.path)]


def test_a_worker_imports_a_queued_club_export_and_recounts_a_club(media):
    game = make_game(players=3)
    finish_game(game)
    owner = game.club.owner()
    empty = services.club_create(user=owner, name="Copy")
    document = archive.club_export_json(game.club).encode()
    queued = services.club_import_queue(club=empty, user=owner, document=document)
    services.recount_queue(club=game.club, user=owner)
    process = workers(media)
    try:
        wait_for(
            lambda: (
                ClubImport.objects.get(pk=queued.pk).status == ImportStatus.IMPORTED
                and not Recount.objects.exists()
            ),
            timeout=60,
        )
    finally:
        out = stop(process)
    assert process.returncode == 0, out
    assert empty.players.count() == 3 and empty.games.get().results.count() == 3
