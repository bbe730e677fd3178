"""Backups: the whole database and every photo in one file, and back into an empty database.

A backup is a tar file holding `database.json` (Django's dumpdata of every row, foreign keys by
natural key), the photos under `media/` and `manifest.json` (format, the migrations it was made
at, each file's SHA-256). It is written while the app is in use, from one snapshot of the
database. Restoring checks all of it before it writes anything, into an empty database only, in
one transaction; the photos are written only once the rows are in. Neither way holds more than
one file in memory.
"""

import contextlib
import hashlib
import io
import json
import os
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from django.contrib.auth import get_user_model
from django.core.files import File
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from scorekeeper.database import snapshot_begin
from scorekeeper.models import Club, Photo

from .photos import STORE_ERRORS, photo_content
from .refusals import ActionRefused

FORMAT = "shanghai-scorekeeper-backup"
VERSION = 1
# Rebuilt by `migrate` or of no use in another database.
NOT_KEPT = ["contenttypes", "auth.permission", "sessions"]
MAX_FILES = 100_000
MAX_MANIFEST = 64 << 20
CHUNK = 1 << 20


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _migrations() -> list[list[str]]:
    recorder = MigrationRecorder(connection)
    return sorted([app, name] for app, name in recorder.applied_migrations())


def database_dump() -> bytes:
    """Every row of the database as dumpdata writes it, foreign keys by natural key."""
    out = io.StringIO()
    _dump(out)
    return out.getvalue().encode()


def _dump(stream) -> None:
    call_command(
        "dumpdata",
        natural_foreign=True,
        natural_primary=True,
        exclude=NOT_KEPT,
        indent=1,
        stdout=stream,
    )


@contextlib.contextmanager
def _snapshot():
    """One transaction whose every read sees the database as it was at its first read,
    whatever commits meanwhile: a backup taken while tables are played holds no event of a
    round it does not hold.

    PostgreSQL's default, read committed, gives each query the newest rows: repeatable read is
    asked for, as the transaction's first statement. An SQLite transaction is one state from its
    first read (here from BEGIN IMMEDIATE, as the settings open every transaction) until it ends:
    writers wait for it. Inside a caller's transaction, the caller's isolation holds."""
    nested = connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and not nested:
            snapshot_begin()
        yield


@dataclass(frozen=True)
class BackupWritten:
    manifest: dict
    skipped: list[str]  # each photo left out and why, in the operator's words


def backup_write(*, path: Path) -> BackupWritten:
    """Write the whole database and its photos (from whichever store holds them) to `path`, as
    they were at one moment (`_snapshot`), while the app is in use; returns the manifest and the
    photos left out: one with no file (a damaged upload, emptied by the worker) or whose file is
    gone is said and skipped, its row kept as the app shows it. Refuses, leaving whatever was
    at `path` as it was, while the photo store does not answer."""
    skipped = []
    # Next to `path`, so that the finished backup takes its place in one rename.
    descriptor, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    # The whole club's rows and photos: readable by whoever runs the app, nobody else.
    os.fchmod(descriptor, 0o600)
    try:
        with (
            os.fdopen(descriptor, "wb") as file,
            tarfile.open(fileobj=file, mode="w:gz") as archive,
            tempfile.TemporaryDirectory() as folder,
        ):
            digests = {}
            with _snapshot():
                migrations, taken = _migrations(), timezone.now()
                dump = Path(folder) / "database.json"
                with dump.open("w", encoding="utf-8") as rows:
                    _dump(rows)
                digests["database.json"] = _add_file(archive, "database.json", dump)
                for photo in Photo.objects.order_by("pk"):
                    where = f"photo {photo.pk} of table {photo.game_id}"
                    if not photo.image:
                        skipped.append(f"{where}: it has no file (damaged upload)")
                        continue
                    try:
                        content = photo_content(photo=photo)
                    except FileNotFoundError:
                        skipped.append(f"{where}: its file is not in the photo store")
                        continue
                    name = f"media/{photo.image.name}"
                    digests[name] = _add(archive, name, content)
            manifest = {
                "format": FORMAT,
                "version": VERSION,
                "created_at": taken.isoformat(),
                "migrations": migrations,
                "files": digests,
            }
            # Last: only now are the checksums known (a restore reads the files in any order).
            _add(archive, "manifest.json", json.dumps(manifest, indent=1).encode())
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
    return BackupWritten(manifest=manifest, skipped=skipped)


def _add(archive: tarfile.TarFile, name: str, data: bytes) -> str:
    """Add `data` to the archive as `name`; its SHA-256."""
    info = tarfile.TarInfo(name)
    info.size = len(data)
    archive.addfile(info, io.BytesIO(data))
    return _sha256(data)


def _add_file(archive: tarfile.TarFile, name: str, source: Path) -> str:
    """Add the file `source` to the archive as `name`, a chunk at a time; its SHA-256."""
    info = tarfile.TarInfo(name)
    info.size = source.stat().st_size
    with source.open("rb") as data:
        archive.addfile(info, data)
        data.seek(0)
        return hashlib.file_digest(data, "sha256").hexdigest()


def _unpack(path: Path, folder: Path) -> tuple[dict, dict[str, Path]]:
    """The manifest of a backup and where each of its files was unpacked in `folder`, every one
    checked against the manifest; refuses anything else. The archive is read as a stream, one
    file at a time, each copied a chunk at a time and its SHA-256 taken on the way."""
    unpacked, digests = {}, {}
    try:
        with tarfile.open(path, "r|*") as archive:
            for member in archive:
                if len(unpacked) >= MAX_FILES:
                    raise ActionRefused(
                        "This is not a backup of this app: it holds too many files."
                    )
                name = PurePosixPath(member.name)
                if (
                    not member.isfile()
                    or name.is_absolute()
                    or ".." in name.parts
                    or member.name in unpacked
                ):
                    raise ActionRefused(f"This backup holds an unsafe entry: {member.name}.")
                # Under a name of our own (loaddata reads the rows' format from theirs).
                own = "database.json" if member.name == "database.json" else f"{len(unpacked)}"
                target = folder / own
                with archive.extractfile(member) as source:
                    digests[member.name] = _copy(source, target)
                unpacked[member.name] = target
    except (tarfile.TarError, EOFError, OSError) as error:
        raise ActionRefused(f"This file is not a readable backup ({error}).") from None
    try:
        listing = unpacked.pop("manifest.json")
        if listing.stat().st_size > MAX_MANIFEST:
            raise ValueError("a manifest this large lists more than MAX_FILES")
        manifest = json.loads(listing.read_bytes())
    except (KeyError, ValueError):
        raise ActionRefused("This file is not a backup of this app: it has no manifest.") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ActionRefused("This file is not a backup of this app.")
    if manifest.get("version") != VERSION:
        raise ActionRefused(
            f"This backup is of format version {manifest.get('version')}: only {VERSION} is read."
        )
    listed = manifest.get("files") or {}
    if set(listed) != set(unpacked) or "database.json" not in unpacked:
        raise ActionRefused(
            "This backup is incomplete: its files are not the ones its manifest lists."
        )
    changed = [name for name in unpacked if digests[name] != listed[name]]
    if changed:
        raise ActionRefused(f"This backup was changed or damaged after it was made: {changed[0]}.")
    return manifest, unpacked


def _copy(source, target: Path) -> str:
    """Copy the archive's file `source` to `target` a chunk at a time; its SHA-256."""
    digest = hashlib.sha256()
    try:
        out = target.open("wb")
    except OSError as error:
        raise _unpacking_refused(error) from None
    with out:
        while chunk := source.read(CHUNK):  # a damaged archive raises here
            digest.update(chunk)
            try:
                out.write(chunk)
            except OSError as error:  # the temporary folder's disk is full, say
                raise _unpacking_refused(error) from None
    return digest.hexdigest()


def _unpacking_refused(error: OSError) -> ActionRefused:
    return ActionRefused(
        f"The backup could not be unpacked to a temporary folder ({error}): set TMPDIR to a "
        "folder with room for it."
    )


def backup_restore(*, path: Path) -> dict:
    """Bring back a backup into this database, which must be empty and migrated to the same
    point; refuses with the reason and changes nothing otherwise. Returns the manifest.

    Unpacked to a temporary folder first (as much disk as the backup unpacked), so that every
    file is checked before anything is written."""
    with tempfile.TemporaryDirectory() as folder:
        manifest, files = _unpack(path, Path(folder))
        if manifest.get("migrations") != _migrations():
            raise ActionRefused(
                "This backup was made at other migrations than this database: run "
                "`manage.py migrate` with the app version that made it, then restore."
            )
        if get_user_model().objects.exists() or Club.objects.exists():
            raise ActionRefused(
                "This database is not empty: restore into a new, migrated database."
            )
        dump = files.pop("database.json")
        with transaction.atomic():
            try:
                call_command("loaddata", str(dump), verbosity=0)
            except Exception as error:  # noqa: BLE001 - whatever refuses the rows, none is kept
                raise ActionRefused(
                    f"The rows of this backup could not be loaded: {error}"
                ) from None
            _photos_write(files)
    return manifest


def _photos_write(photos: dict[str, Path]) -> None:
    """Write the photos (unpacked files) to the photo store (MEDIA_ROOT, or the bucket) under
    their own names, or none of them."""
    storage = Photo._meta.get_field("image").storage
    written = []
    try:
        for name, source in photos.items():
            name = name.removeprefix("media/")
            # The database is empty, so a file already there belongs to no photo: replaced.
            storage.delete(name)
            with source.open("rb") as content:
                if storage.save(name, File(content)) != name:
                    raise OSError(f"the store kept {name} under another name")
            written.append(name)
    except STORE_ERRORS as error:
        for name in written:
            with contextlib.suppress(*STORE_ERRORS):
                storage.delete(name)
        raise ActionRefused(
            f"The photos could not be written to the photo store: {error}"
        ) from None
