"""Photos taken at the table: kept with their round within the club's quota, read by a worker,
deleted with their file; photos of the standalone checker: read by a worker, never kept. Files
are in the configured storage: MEDIA_ROOT on a laptop, a bucket when hosted."""

import io
import logging
import secrets

from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Count, QuerySet, Sum
from django.tasks import TaskResult, task
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext, gettext_noop
from PIL import Image, ImageOps, UnidentifiedImageError

from recognizer import UnreadableImage, read_photo
from scorekeeper.models import Game, Photo, PhotoStatus, Role, Seat
from scorekeeper.uploads import NOT_A_PHOTO, PHOTO_DAMAGED, UploadedPhoto

from .refusals import ActionRefused, PhotoStoreUnavailable
from .roles import role_require
from .tables import current_round

logger = logging.getLogger(__name__)

# The side the recognizer reads photos at (its reader.WORKING_SIDE: importing the reader would
# load numpy, OpenCV and ONNX Runtime into every web process; the networks themselves load only
# with the first photo read): a JPEG is decoded no smaller, and no larger than it must be.
WORKING_SIDE = 1280

# What a store that cannot be reached or refuses raises: the bucket's client, or the disk.
STORE_ERRORS = (BotoCoreError, ClientError, OSError)


class Unreadable(Exception):
    """Why a photo's cards cannot be read, in the player's words."""


def photo_record(
    *, game: Game, photo: UploadedPhoto, user, seat: Seat | None = None, second: bool = False
) -> Photo:
    """Keep a photo taken at the table with the round (and with the `seat` whose hand it shows,
    when taken for the score entry; `second` when it is a second photo of that hand, read with
    the one before it), and queue it for a worker to read (`photo_read`): the request only
    stores it, so no tap waits for a photo.

    The file is written before its row, and removed again if the row cannot be kept (the round
    was scored meanwhile, say), so no file is left without its row. The row and its task are
    saved in one transaction: both or neither.
    """
    role_require(club=game.club_id, user=user, role=Role.SCORER)
    _quota_check(game=game, size=len(photo.content))
    kept = Photo(
        game=game,
        seat=seat,
        second=second and seat is not None,
        created_by=user,
        size=len(photo.content),
        width=photo.width,
        height=photo.height,
        status=PhotoStatus.READING,
    )
    try:
        kept.image.save(_name(game), ContentFile(photo.content), save=False)
    except STORE_ERRORS as error:
        logger.warning("photo not stored: %s", error)
        _file_delete(kept.image.name)
        raise PhotoStoreUnavailable() from None
    try:
        with transaction.atomic():
            kept.round = current_round(game)
            # A second photo of a hand that has no photo yet is its first.
            kept.second = kept.second and kept.round.photos.filter(seat=seat, second=False).exists()
            kept.save()
            photo_read.enqueue(kept.pk)
    except BaseException:
        _file_delete(kept.image.name)
        raise
    return kept


def _name(game: Game) -> str:
    # A name of its own: two tablets' photos of one table never share a key in a bucket.
    return f"table{game.pk}-{secrets.token_urlsafe(12)}.jpg"


@task(priority=10)
def photo_read(photo_id: int) -> str:
    """A worker's task: turn a photo taken at a table upright, re-encode it without EXIF, read
    its cards and keep what was read, or why it could not be read. Runs into the photo once: a
    second run (its worker killed after the first wrote) finds it read and changes nothing.
    Returns the photo's status."""
    photo = Photo.objects.filter(pk=photo_id, status=PhotoStatus.READING).first()
    if photo is None:
        return "already read, or deleted"
    uploaded = photo.image.name
    try:
        upright = _upright(photo_content(photo=photo))
        content = _jpeg(upright)
        detections, unread = _cards_in(upright)
        # A name of its own per upload: a run killed after writing it leaves nothing behind,
        # since the next run writes the same name again.
        name = f"{uploaded.rsplit('.', 1)[0]}-read.jpg"
        try:
            photo.image.storage.delete(name)
            if photo.image.storage.save(name, ContentFile(content)) != name:
                raise OSError(f"the store kept {name} under another name")
        except STORE_ERRORS as error:
            logger.warning("read photo %s not stored: %s", photo_id, error)
            raise PhotoStoreUnavailable() from None
    except (Unreadable, FileNotFoundError, PhotoStoreUnavailable) as problem:
        reason = (
            str(problem)
            if isinstance(problem, Unreadable | PhotoStoreUnavailable)
            else gettext_noop("The photo was lost before it could be read; please take it again.")
        )
        kept = Photo.objects.filter(pk=photo_id, status=PhotoStatus.READING).update(
            status=PhotoStatus.UNREADABLE, problem=reason, image="", size=0
        )
        if kept:
            _file_delete(uploaded)
        return PhotoStatus.UNREADABLE
    kept = Photo.objects.filter(pk=photo_id, status=PhotoStatus.READING).update(
        status=PhotoStatus.READ,
        image=name,
        size=len(content),
        width=upright.width,
        height=upright.height,
        detections=detections,
        unread=unread,
    )
    # The upload, or (when a deletion or another run came first) the copy just written, goes.
    _file_delete(uploaded if kept else name)
    return PhotoStatus.READ if kept else "already read, or deleted"


def upload_keep(*, photo: UploadedPhoto, user) -> TaskResult:
    """Queue a photo taken at the standalone checker, which belongs to no table, for a worker
    to read (`upload_read`); it is kept only until the worker has read it. Returns the task,
    whose result only `user` may ask for (finished already where tasks run in the request)."""
    storage = Photo._meta.get_field("image").storage
    try:
        name = storage.save(
            f"uploads/checker-{secrets.token_urlsafe(12)}", ContentFile(photo.content)
        )
    except STORE_ERRORS as error:
        logger.warning("upload not stored: %s", error)
        raise PhotoStoreUnavailable() from None
    return upload_read.enqueue(name, user.pk)


@task(priority=10)
def upload_read(name: str, user_id: int) -> dict:
    """A worker's task: read the cards of a standalone checker's photo, then delete it.
    Returns {"width", "height", "detections", "unread"}, or {"problem"} in the player's words."""
    storage = Photo._meta.get_field("image").storage
    try:
        with storage.open(name, "rb") as upload:
            upright = _upright(upload.read())
        detections, unread = _cards_in(upright)
        return {
            "width": upright.width,
            "height": upright.height,
            "detections": detections,
            "unread": unread,
        }
    except Unreadable as problem:
        return {"problem": str(problem)}
    except FileNotFoundError:
        return {
            "problem": gettext_noop(
                "The photo was lost before it could be read; please take it again."
            )
        }
    except STORE_ERRORS:
        return {"problem": str(PhotoStoreUnavailable())}
    finally:
        _file_delete(name)


def _upright(content: bytes) -> Image.Image:
    """The photo decoded, once, and turned upright; Unreadable when it cannot be decoded.

    A JPEG is decoded at the smallest size its decoder makes quickly that is still no smaller
    than what the recognizer reads (WORKING_SIDE): a 12-megapixel phone photo at 2016x1512, in a
    quarter of the time, exactly as the recognizer decodes it by itself. That is the photo kept.
    """
    try:
        with Image.open(io.BytesIO(content)) as image:
            if image.format == "JPEG":
                image.draft("RGB", (WORKING_SIDE, WORKING_SIDE))
            image.load()
            return ImageOps.exif_transpose(image).convert("RGB")
    except (UnidentifiedImageError, Image.DecompressionBombError):
        raise Unreadable(NOT_A_PHOTO) from None
    except (OSError, SyntaxError, ValueError):
        raise Unreadable(PHOTO_DAMAGED) from None


def _jpeg(upright: Image.Image) -> bytes:
    """The upright photo encoded as JPEG, without EXIF (no location, no comment)."""
    # Nothing of the upload's metadata but its colours: Pillow would write its comment again.
    upright.info = {key: upright.info[key] for key in ("icc_profile",) if key in upright.info}
    buffer = io.BytesIO()
    upright.save(buffer, format="JPEG", quality=88)
    return buffer.getvalue()


def _cards_in(upright: Image.Image) -> tuple[list[dict], list[dict]]:
    """The cards read in the upright photo, handed to the recognizer as decoded (not decoded
    again), and where it looked but was unsure."""
    try:
        reading = read_photo(upright)
    except UnreadableImage:
        raise Unreadable(
            gettext_noop("That photo could not be read; please take it again.")
        ) from None

    def kept(found) -> dict:
        return {"card": found.card, "confidence": round(found.confidence, 3), "box": [*found.box]}

    return [kept(card) for card in reading.cards], [kept(card) for card in reading.unread]


def photo_content(*, photo: Photo) -> bytes:
    """The stored photo's bytes; FileNotFoundError when its file is gone."""
    try:
        with photo.image.open("rb") as image:
            return image.read()
    except FileNotFoundError:
        # A bucket that is gone answers "no such file" too: that is the store's fault.
        if photo_store_problem():
            raise PhotoStoreUnavailable() from None
        raise
    except STORE_ERRORS as error:
        logger.warning("photo %s not read: %s", photo.pk, error)
        raise PhotoStoreUnavailable() from None


def photo_store_problem() -> str | None:
    """Why the photo store cannot be used now (the bucket does not answer, is not there or
    refuses these credentials), or None when it can."""
    # Imported here: boto3 takes a quarter of a second to import, and only the bucket needs it.
    from storages.backends.s3 import S3Storage

    storage = Photo._meta.get_field("image").storage
    if not isinstance(storage, S3Storage):
        return None
    try:
        storage.connection.meta.client.head_bucket(Bucket=storage.bucket_name)
    except (BotoCoreError, ClientError) as error:
        return str(error)
    return None


def _file_delete(name: str) -> None:
    """Delete a photo's file; a store that cannot do it now leaves it, said in the log (a file
    left without its row is only space; the rows, which are what the app shows, are right)."""
    if not name:
        return
    try:
        Photo._meta.get_field("image").storage.delete(name)
    except STORE_ERRORS as error:
        logger.warning("photo file %s left in the store: %s", name, error)


def _megabytes(size: int) -> str:
    megabyte = 1024 * 1024
    return f"{size // megabyte} MB" if size % megabyte == 0 else filesizeformat(size)


def _quota_check(*, game: Game, size: int) -> None:
    """Refuse a photo of `size` bytes that would take the table's club over its photo quota.
    Two photos taken at the same moment may both pass: the quota is a budget, not a lock."""
    kept = Photo.objects.filter(game__club_id=game.club_id).aggregate(
        count=Count("pk"), size=Sum("size", default=0)
    )
    if (
        kept["count"] + 1 > settings.PHOTO_QUOTA_COUNT
        or kept["size"] + size > settings.PHOTO_QUOTA_BYTES
    ):
        raise ActionRefused(
            gettext(
                "This club's photos are full (%(count)s photos, %(size)s): delete old ones from a "
                "table's history page."
            )
            % {"count": settings.PHOTO_QUOTA_COUNT, "size": _megabytes(settings.PHOTO_QUOTA_BYTES)}
        )


def photos_drop(photos: QuerySet) -> int:
    """Delete the photos' rows, and their files once the deletion is committed (a deletion
    rolled back keeps both). Returns how many were deleted."""
    names = list(photos.values_list("image", flat=True))
    photos.delete()

    def files_delete():
        for name in names:
            _file_delete(name)

    transaction.on_commit(files_delete)
    return len(names)


@transaction.atomic
def photo_delete(*, photo: Photo, user) -> None:
    """Delete a photo and its file; the check it belonged to stays in the history."""
    role_require(club=photo.game.club_id, user=user, role=Role.SCORER)
    photos_drop(Photo.objects.filter(pk=photo.pk))
