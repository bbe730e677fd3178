"""Photos taken at the table: read, kept with their round, deleted with their file."""

from django.core.files.base import ContentFile
from django.db import transaction

from scorekeeper.models import Game, Photo, Role
from scorekeeper.recognition import UnreadableImage, read_cards

from .refusals import ActionRefused
from .roles import role_require
from .tables import current_round


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


def photo_record(*, game: Game, photo, user) -> Photo:
    """Read the cards in a photo taken at the table and keep the photo with the round.

    Reading takes about a second, so it happens before any transaction: the table's other
    tablets write meanwhile. The file is written before its row, and removed again if the row
    cannot be kept (the round was scored meanwhile, say), so no file is left without its row.
    """
    role_require(club=game.club_id, user=user, role=Role.SCORER)
    kept = photo_read(photo=photo)
    kept.game = game
    kept.created_by = user
    kept.image.save(f"table{game.pk}.jpg", ContentFile(photo.content), save=False)
    try:
        with transaction.atomic():
            kept.round = current_round(game)
            kept.save()
    except BaseException:
        kept.image.delete(save=False)
        raise
    return kept


@transaction.atomic
def photo_delete(*, photo: Photo, user) -> None:
    """Delete a photo, and its file once the row's deletion is committed (a deletion rolled
    back keeps both); the check it belonged to stays in the history."""
    role_require(club=photo.game.club_id, user=user, role=Role.SCORER)
    storage, name = photo.image.storage, photo.image.name
    photo.delete()
    transaction.on_commit(lambda: storage.delete(name))
