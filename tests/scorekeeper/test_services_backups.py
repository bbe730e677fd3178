"""Backups: every row and every photo comes back, and a bad file changes nothing."""

import io
import json
import os
import tarfile
import threading
import tracemalloc
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Club, Event, Game, Photo, PhotoStatus
from scorekeeper.services.backups import database_dump
from tests.factories import kept_photo, make_game, play_round, run_tasks

PHOTO = Path(__file__).resolve().parents[1] / "recognition" / "photos" / "phone_010.jpg"
# slow: whole backups written and restored.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def club_night():
    """Two tables, one finished round, a photo, a May I? taken back: a bit of everything."""
    game = make_game(players=4)
    play_round(game)
    client = Client()
    client.force_login(game.created_by)
    photo = SimpleUploadedFile("meld.jpg", PHOTO.read_bytes(), content_type="image/jpeg")
    client.post(reverse("table_photo", args=[game.pk]), {"photo": photo})
    make_game(players=3)
    return game


def media_files(media: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(media)): path.read_bytes()
        for path in media.rglob("*")
        if path.is_file()
    }


def wipe(media: Path):
    """An empty, migrated database and no photos: a new server."""
    call_command("flush", interactive=False, verbosity=0)
    for path in media.rglob("*"):
        if path.is_file():
            path.unlink()


def test_a_backup_restores_every_row_and_photo(club_night, media, tmp_path):
    rows, photos = database_dump(), media_files(media)
    assert Photo.objects.count() == 1 and photos
    path = tmp_path / "club.tar.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    wipe(media)
    assert not Club.objects.exists() and not media_files(media)

    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    assert "1 photo(s)" in out.getvalue()
    assert database_dump() == rows
    assert media_files(media) == photos
    # The restored app works: the owner logs in and sees the table.
    client = Client()
    # By username: users travel by natural key, so their ids are new ones after a test that
    # flushed the database (transactional browser tests run first in the whole suite).
    client.force_login(get_user_model().objects.get(username=club_night.created_by.username))
    assert client.get(reverse("game", args=[club_night.pk])).status_code == 200


def rewrite(path: Path, change) -> Path:
    """A copy of the backup with `change(files)` applied to its entries."""
    with tarfile.open(path) as archive:
        files = {m.name: archive.extractfile(m).read() for m in archive.getmembers()}
    change(files)
    out = path.with_name("changed.tar.gz")
    with tarfile.open(out, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out


def tamper_rows(files):
    files["database.json"] = files["database.json"].replace(b'"Player ', b'"Hacker ')


def drop_photo(files):
    del files[next(name for name in files if name.startswith("media/"))]


def other_format(files):
    manifest = json.loads(files["manifest.json"])
    manifest["format"] = "something-else"
    files["manifest.json"] = json.dumps(manifest).encode()


def unsafe_name(files):
    files["../../escape.txt"] = b"x"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (tamper_rows, "changed or damaged"),
        (drop_photo, "incomplete"),
        (other_format, "not a backup of this app"),
        (unsafe_name, "unsafe entry"),
    ],
)
def test_a_bad_backup_is_refused_and_changes_nothing(club_night, media, tmp_path, change, reason):
    path = tmp_path / "club.tar.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    changed = rewrite(path, change)
    wipe(media)
    with pytest.raises(CommandError, match=reason):
        call_command("restore", str(changed))
    assert not Club.objects.exists() and not get_user_model().objects.exists()
    assert not media_files(media)


def test_a_truncated_backup_is_refused(club_night, media, tmp_path):
    path = tmp_path / "club.tar.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    wipe(media)
    with pytest.raises(CommandError, match="not a readable backup"):
        call_command("restore", str(path))
    assert not Club.objects.exists()


def test_a_backup_is_not_restored_over_a_database_in_use(club_night, tmp_path):
    path = tmp_path / "club.tar.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    before = database_dump()
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(path))
    assert database_dump() == before


def test_a_backup_is_for_its_owner_alone_and_keeps_every_microsecond(club_night, media, tmp_path):
    path = tmp_path / "club.tar.gz"
    path.write_bytes(b"an older file, readable by all")
    path.chmod(0o644)
    call_command("backup", str(path), stdout=io.StringIO())
    assert path.stat().st_mode & 0o777 == 0o600
    made = {event.pk: event.created_at for event in club_night.events.all()}
    assert any(moment.microsecond % 1000 for moment in made.values())  # below the millisecond
    wipe(media)
    call_command("restore", str(path), stdout=io.StringIO())
    restored = {event.pk: event.created_at for event in Event.objects.filter(pk__in=made)}
    assert restored == made


def test_a_photo_with_no_file_is_skipped_and_said(club_night, media, tmp_path):
    """A truncated JPEG the worker marked damaged keeps its row, with no file: the backup says
    so and goes on, and the row comes back with its reason."""
    client = Client()
    client.force_login(club_night.created_by)
    cut = SimpleUploadedFile("cut.jpg", PHOTO.read_bytes()[:5000], content_type="image/jpeg")
    client.post(reverse("table_photo", args=[club_night.pk]), {"photo": cut})
    with transaction.atomic():  # as the worker claims a task
        run_tasks()
    damaged = Photo.objects.get(image="")
    assert damaged.status == PhotoStatus.UNREADABLE
    path = tmp_path / "club.tar.gz"
    out = io.StringIO()
    call_command("backup", str(path), stdout=out)
    assert f"Skipped photo {damaged.pk} of table {club_night.pk}: it has no file" in out.getvalue()
    assert "Wrote" in out.getvalue()

    wipe(media)
    call_command("restore", str(path), stdout=io.StringIO())
    assert Photo.objects.get(pk=damaged.pk).problem == damaged.problem


def test_the_backup_reads_one_snapshot(club_night, tmp_path):
    """A table written by another connection once the backup has begun reading is not in it,
    though later reads of the backup come after it (on PostgreSQL it is committed by then; on
    SQLite it waits for the backup's lock). Read committed, the backup held half of what it
    read before the write and half after: event -> round and hand -> seat broken."""
    started = threading.Event()

    def another_tablet():
        try:
            play_round(make_game(club=club_night.club, players=3))
        finally:
            connection.close()

    writer = threading.Thread(target=another_tablet)

    def write_once_reading(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not started.is_set() and sql.lstrip().upper().startswith("SELECT"):
            started.set()
            writer.start()
            # PostgreSQL commits it now; SQLite makes it wait for the backup to finish.
            writer.join(timeout=10 if connection.vendor == "postgresql" else 0.3)
            if connection.vendor == "postgresql":
                assert not writer.is_alive()
        return result

    games = Game.objects.count()
    path = tmp_path / "club.tar.gz"
    with connection.execute_wrapper(write_once_reading):
        call_command("backup", str(path), stdout=io.StringIO())
    writer.join()
    assert Game.objects.count() == games + 1
    with tarfile.open(path) as archive:
        rows = json.loads(archive.extractfile("database.json").read())
    assert sum(row["model"] == "scorekeeper.game" for row in rows) == games


def test_a_restore_holds_no_photo_in_memory(club_night, media, tmp_path):
    """Read from the archive and written to the store a chunk at a time: a restore's memory
    does not grow with the photos (before, it held every file of the backup at once)."""
    size = 16 << 20
    kept_photo(club_night, content=os.urandom(size))
    path = tmp_path / "club.tar.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    wipe(media)
    tracemalloc.start()
    try:
        call_command("restore", str(path), stdout=io.StringIO())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert Photo.objects.count() == 2
    assert peak < size / 2
