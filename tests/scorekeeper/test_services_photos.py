"""Photos kept with their table (scorekeeper/services/photos.py)."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction

from scorekeeper import services
from scorekeeper.forms import photo_check
from scorekeeper.models import Photo
from tests.factories import PHOTO, play_round

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
