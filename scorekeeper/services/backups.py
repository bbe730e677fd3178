"""Backups: the whole database and every photo in one file, and back into an empty database.

A backup is a tar file holding `manifest.json` (format, the migrations it was made at, each file's
SHA-256), `database.json` (Django's dumpdata of every row, foreign keys by natural key) and the
photos under `media/`. Restoring checks all of it before it writes anything, into an empty
database only, in one transaction; the photos are written only once the rows are in.
"""

import contextlib
import hashlib
import io
import json
import os
import tarfile
import tempfile
from pathlib import Path, PurePosixPath

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from scorekeeper.models import Club, Photo

from .photos import STORE_ERRORS, photo_content
from .refusals import ActionRefused

FORMAT = "shanghai-scorekeeper-backup"
VERSION = 1
# Rebuilt by `migrate` or of no use in another database.
NOT_KEPT = ["contenttypes", "auth.permission", "sessions"]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _migrations() -> list[list[str]]:
    recorder = MigrationRecorder(connection)
    return sorted([app, name] for app, name in recorder.applied_migrations())


def database_dump() -> bytes:
    """Every row of the database as dumpdata writes it, foreign keys by natural key."""
    out = io.StringIO()
    call_command(
        "dumpdata",
        natural_foreign=True,
        natural_primary=True,
        exclude=NOT_KEPT,
        indent=1,
        stdout=out,
    )
    return out.getvalue().encode()


def backup_write(*, path: Path) -> dict:
    """Write the whole database and its photos (from whichever store holds them) to `path`;
    returns the manifest. Refuses, writing nothing, while the photo store does not answer."""
    with transaction.atomic():  # one consistent view of every table
        files = {"database.json": database_dump()}
        for photo in Photo.objects.order_by("pk"):
            try:
                files[f"media/{photo.image.name}"] = photo_content(photo=photo)
            except FileNotFoundError:
                continue  # a row whose file is gone: the row is kept, as the app shows it
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": timezone.now().isoformat(),
        "migrations": _migrations(),
        "files": {name: _sha256(data) for name, data in files.items()},
    }
    # The whole club's rows and photos: readable by whoever runs the app, nobody else.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)  # a file already there keeps its mode otherwise
    with os.fdopen(descriptor, "wb") as file, tarfile.open(fileobj=file, mode="w:gz") as archive:
        entries = {"manifest.json": json.dumps(manifest, indent=1).encode(), **files}
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return manifest


def _read(path: Path) -> tuple[dict, dict[str, bytes]]:
    """The manifest and files of a backup, every one checked; refuses anything else."""
    try:
        with tarfile.open(path, "r:*") as archive:
            members = archive.getmembers()
            if len(members) > 100_000:
                raise ActionRefused("This is not a backup of this app: it holds too many files.")
            files = {}
            for member in members:
                name = PurePosixPath(member.name)
                if not member.isfile() or name.is_absolute() or ".." in name.parts:
                    raise ActionRefused(f"This backup holds an unsafe entry: {member.name}.")
                files[member.name] = archive.extractfile(member).read()
    except (tarfile.TarError, EOFError, OSError) as error:
        raise ActionRefused(f"This file is not a readable backup ({error}).") from None
    try:
        manifest = json.loads(files.pop("manifest.json"))
    except (KeyError, ValueError):
        raise ActionRefused("This file is not a backup of this app: it has no manifest.") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ActionRefused("This file is not a backup of this app.")
    if manifest.get("version") != VERSION:
        raise ActionRefused(
            f"This backup is of format version {manifest.get('version')}: only {VERSION} is read."
        )
    listed = manifest.get("files") or {}
    if set(listed) != set(files) or "database.json" not in files:
        raise ActionRefused(
            "This backup is incomplete: its files are not the ones its manifest lists."
        )
    changed = [name for name, data in files.items() if _sha256(data) != listed[name]]
    if changed:
        raise ActionRefused(f"This backup was changed or damaged after it was made: {changed[0]}.")
    return manifest, files


def backup_restore(*, path: Path) -> dict:
    """Bring back a backup into this database, which must be empty and migrated to the same
    point; refuses with the reason and changes nothing otherwise. Returns the manifest."""
    manifest, files = _read(path)
    if manifest.get("migrations") != _migrations():
        raise ActionRefused(
            "This backup was made at other migrations than this database: run "
            "`manage.py migrate` with the app version that made it, then restore."
        )
    if get_user_model().objects.exists() or Club.objects.exists():
        raise ActionRefused("This database is not empty: restore into a new, migrated database.")
    photos = {name: data for name, data in files.items() if name != "database.json"}
    with tempfile.TemporaryDirectory() as folder, transaction.atomic():
        dump = Path(folder) / "database.json"
        dump.write_bytes(files["database.json"])
        try:
            call_command("loaddata", str(dump), verbosity=0)
        except Exception as error:  # noqa: BLE001 - whatever refuses the rows, none is kept
            raise ActionRefused(f"The rows of this backup could not be loaded: {error}") from None
        _photos_write(photos)
    return manifest


def _photos_write(photos: dict[str, bytes]) -> None:
    """Write the photos to the photo store (MEDIA_ROOT, or the bucket) under their own names,
    or none of them."""
    storage = Photo._meta.get_field("image").storage
    written = []
    try:
        for name, data in photos.items():
            name = name.removeprefix("media/")
            # The database is empty, so a file already there belongs to no photo: replaced.
            storage.delete(name)
            if storage.save(name, ContentFile(data)) != name:
                raise OSError(f"the store kept {name} under another name")
            written.append(name)
    except STORE_ERRORS as error:
        for name in written:
            with contextlib.suppress(*STORE_ERRORS):
                storage.delete(name)
        raise ActionRefused(
            f"The photos could not be written to the photo store: {error}"
        ) from None
