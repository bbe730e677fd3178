"""Photos kept with their table (scorekeeper/services/photos.py)."""

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from PIL import Image

from recognizer import read_cards, reader
from scorekeeper import services
from scorekeeper.forms import photo_check
from scorekeeper.models import Photo
from scorekeeper.services import photos
from tests.factories import PHOTO, play_round, run_tasks

pytestmark = pytest.mark.django_db


def test_a_photo_of_a_table_that_finished_meanwhile_leaves_no_file(game, tmp_path):
    for _ in range(7):
        play_round(game)
    clean = photo_check(SimpleUploadedFile("meld.jpg", PHOTO.read_bytes()))
    with pytest.raises(services.ActionRefused, match="game is over"):
        services.photo_record(game=game, photo=clean, user=game.created_by)
    assert not Photo.objects.exists()
    assert not [path for path in tmp_path.rglob("*") if path.is_file()]


def test_a_deletion_rolled_back_keeps_the_photo_and_its_file(game):
    clean = photo_check(SimpleUploadedFile("meld.jpg", PHOTO.read_bytes()))
    photo = services.photo_record(game=game, photo=clean, user=game.created_by)
    path = Path(photo.image.path)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.photo_delete(user=photo.game.club.owner(), photo=photo)
        raise RuntimeError("something else in the same transaction failed")
    assert Photo.objects.exists()
    assert path.exists()


@pytest.mark.slow  # a photo read by the recognizer
@pytest.mark.players(3)
def test_a_large_photo_is_decoded_once_at_the_size_the_recognizer_reads(game, media):
    """A 12-megapixel photo is decoded once, at half its size (as the recognizer decodes it by
    itself), kept at that size, and read as the recognizer alone reads it."""
    assert photos.WORKING_SIDE == reader.WORKING_SIDE
    with Image.open(PHOTO.with_name("win_029.jpg")) as image:
        large = image.convert("RGB").resize((4032, 3024), Image.Resampling.BICUBIC)
    buffer = io.BytesIO()
    large.save(buffer, "JPEG", quality=90)
    content = buffer.getvalue()
    upload = SimpleUploadedFile("large.jpg", content, content_type="image/jpeg")
    kept = services.photo_record(game=game, photo=photo_check(upload), user=game.created_by)
    run_tasks()
    kept.refresh_from_db()
    assert (kept.width, kept.height) == (2016, 1512)
    alone = read_cards(content)
    scale = 4032 / 2016
    assert [found["card"] for found in kept.detections] == [card.card for card in alone]
    for found, card in zip(kept.detections, alone, strict=True):
        assert [round(side * scale) for side in found["box"]] == pytest.approx(card.box, abs=4)
