"""Photos taken at the table: read, kept with their round within the club's quota, deleted with
their file. The file is in the configured storage: MEDIA_ROOT on a laptop, a bucket when hosted."""

import logging
import secrets

from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Count, QuerySet, Sum
from django.template.defaultfilters import filesizeformat

from scorekeeper.models import Game, Photo, Role, Seat
from scorekeeper.recognition import UnreadableImage, read_cards

from .refusals import ActionRefused, PhotoStoreUnavailable
from .roles import role_require
from .tables import current_round

logger = logging.getLogger(__name__)

# What a store that cannot be reached or refuses raises: the bucket's client, or the disk.
STORE_ERRORS = (BotoCoreError, ClientError, OSError)


def photo_read(*, photo) -> Photo:
    """Read the cards in a photo without keeping it: the standalone checker's photos belong to no
    table, so neither they nor their file are stored. The Photo returned is never saved."""
    try:
        found = read_cards(photo.content)
    except UnreadableImage:
        raise ActionRefused("That photo could not be read; please take it again.") from None
    detections = [
        {"card": card.card, "confidence": round(card.confidence, 3), "box": list(card.box)}
        for card in found
    ]
    return Photo(width=photo.width, height=photo.height, detections=detections)


def photo_record(*, game: Game, photo, user, seat: Seat | None = None) -> Photo:
    """Read the cards in a photo taken at the table and keep the photo with the round, and with
    the `seat` whose hand it shows when it was taken for the score entry.

    Reading takes about a second, so it happens before any transaction: the table's other
    tablets write meanwhile. The file is written before its row, and removed again if the row
    cannot be kept (the round was scored meanwhile, say), so no file is left without its row.
    """
    role_require(club=game.club_id, user=user, role=Role.SCORER)
    _quota_check(game=game, size=len(photo.content))
    kept = photo_read(photo=photo)
    kept.game = game
    kept.seat = seat
    kept.created_by = user
    kept.size = len(photo.content)
    # A name of its own: two tablets' photos of one table never share a key in a bucket.
    name = f"table{game.pk}-{secrets.token_urlsafe(12)}.jpg"
    try:
        kept.image.save(name, ContentFile(photo.content), save=False)
    except STORE_ERRORS as error:
        logger.warning("photo not stored: %s", error)
        _file_delete(kept.image.name)
        raise PhotoStoreUnavailable() from None
    try:
        with transaction.atomic():
            kept.round = current_round(game)
            kept.save()
    except BaseException:
        _file_delete(kept.image.name)
        raise
    return kept


def photo_content(*, photo: Photo) -> bytes:
    """The stored photo's bytes; FileNotFoundError when its file is gone."""
    try:
        with photo.image.open("rb") as image:
            return image.read()
    except FileNotFoundError:
        raise
    except STORE_ERRORS as error:
        logger.warning("photo %s not read: %s", photo.pk, error)
        raise PhotoStoreUnavailable() from None


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
            f"This club's photos are full ({settings.PHOTO_QUOTA_COUNT} photos, "
            f"{_megabytes(settings.PHOTO_QUOTA_BYTES)}): delete old ones from a table's "
            "history page."
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
