"""The recognizer on real photos: copies of development photos, see photos/ATTRIBUTION.md."""

import dataclasses
import functools
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from recognizer import (
    SURE_CONFIDENCE,
    Detection,
    UnreadableImage,
    load_image,
    read_cards,
    read_photo,
)
from recognizer.corners import despeckled
from recognizer.reader import MIN_CONFIDENCE, UNREAD_SHOWN, WORKING_SIDE
from tools.recognition.evaluate import transformed

# slow: real photos through the networks.
pytestmark = pytest.mark.slow

PHOTOS = Path(__file__).with_name("photos")

# Photo, the cards it shows, and how many of them must be read. A missed card is tolerated (the
# player adds it by hand); a wrong card only when it is flagged for the player to check, and no
# more than one a photo.
EXPECTED = [
    # Its labels add a QD on the 2D's other corner (tools/recognition/label_errata.tsv).
    ("win_029.jpg", "2S 2H 2D 2C 8S 8H 8D 8C", 7),
    ("win_022.jpg", "5D 7D 10H QS KD AH", 3),
    # A webcam shot of a fan in a deck with thin serif digits: its 3, 6, 9 and J were missed until
    # the networks learned the faces of other decks. The far corner of its 8S reads 8C, unsurely.
    ("win_025.jpg", "2S 2C 3C 4C 6C 7C 8S 9S 9C JS JC KS KC AC", 13),
    # Speckled, blurred clubs: its 10C was read as 10S until the networks saw more blurred indices.
    ("win_016.jpg", "3S 4S 4D 4C 5S 5H 5C 8S 8H 9S 10D 10C JC QD KC AS AD AC", 13),
    ("phone_010.jpg", "6S", 1),
    ("phone_021.jpg", "QH KS", 1),
    # The joker network finds a joker here, less surely than a joker must be read.
    ("win_032.jpg", "2S 2H 2D 2C", 3),
    # And here, on the green edge of a mat, but the other network does not: their average reads it.
    ("win_031.jpg", "8S 8H 8D 8C", 4),
    ("phone_073.jpg", "JK", 1),
    ("phone_103.jpg", "JK", 1),
]


def cards_read(source) -> set[str]:
    return {detection.card for detection in read_cards(source)}


@functools.cache
def read_once(name: str) -> tuple[Detection, ...]:
    """A photo of photos/ as read_cards reads its file, read once for the tests that take it so
    (each test of another input form reads that form itself)."""
    return tuple(read_cards(PHOTOS / name))


@pytest.mark.parametrize(("name", "cards", "at_least"), EXPECTED)
def test_reads_the_cards_in_a_photo(name, cards, at_least):
    shown = set(cards.split())

    detections = read_once(name)

    wrong = [detection for detection in detections if detection.card not in shown]
    assert len(wrong) <= 1, f"wrong cards: {wrong}"
    assert all(detection.confidence < SURE_CONFIDENCE for detection in wrong), (
        f"shown as sure: {wrong}"
    )
    read = {detection.card for detection in detections} & shown
    assert len(read) >= at_least, f"missed: {shown - read}"


@pytest.mark.parametrize("name", ["win_029.jpg", "win_032.jpg", "win_022.jpg"])
def test_each_card_of_one_deck_is_read_once(name):
    # Both corners of most of these cards show, some close together (large indices, photos
    # squashed to a square): read as two cards they would put an extra card in the hand.
    cards = [detection.card for detection in read_once(name)]

    assert len(cards) == len(set(cards))


@pytest.mark.parametrize("name", ["phone_073.jpg", "phone_103.jpg"])
def test_a_joker_is_one_card_though_its_word_is_read_several_times(name):
    detections = read_once(name)

    assert [detection.card for detection in detections] == ["JK"]


def test_detections_are_frozen_with_boxes_inside_the_image():
    detections = read_once("win_029.jpg")

    assert detections
    for detection in detections:
        assert isinstance(detection, Detection)
        assert 0 <= detection.confidence <= 1
        x0, y0, x1, y1 = detection.box
        assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 640
        with pytest.raises(dataclasses.FrozenInstanceError):
            detection.card = "AS"


def test_path_string_bytes_and_file_give_the_same_reading():
    path = PHOTOS / "win_029.jpg"
    expected = list(read_once("win_029.jpg"))

    assert read_cards(str(path)) == expected
    assert read_cards(path.read_bytes()) == expected
    with path.open("rb") as handle:
        assert read_cards(handle) == expected


def test_an_upright_pillow_image_is_read_as_its_file_is():
    path = PHOTOS / "win_029.jpg"
    with Image.open(path) as image:
        image.load()
        assert [d.card for d in read_cards(image)] == [d.card for d in read_once(path.name)]
        assert image.size == (640, 640)  # the caller's image is left as it was


@pytest.mark.parametrize("name", ["win_016.jpg", "win_029.jpg", "win_031.jpg"])
def test_read_photo_adds_where_it_was_unsure_without_changing_the_cards(name):
    reading = read_photo(PHOTOS / name)

    assert reading.cards == list(read_once(name))
    assert len(reading.unread) <= UNREAD_SHOWN
    assert [d.confidence for d in reading.unread] == sorted(
        (d.confidence for d in reading.unread), reverse=True
    )
    for candidate in reading.unread:
        assert candidate.confidence < MIN_CONFIDENCE
        # Not a card read seen again: it lies mostly outside every card read.
        assert candidate.box not in [card.box for card in reading.cards]


def test_a_card_missed_in_a_busy_fan_is_among_the_unread():
    # win_004's KC is read at 0.64, under MIN_CONFIDENCE: the count check offers it.
    reading = read_photo(PHOTOS / "win_004.jpg")

    assert "KC" not in {card.card for card in reading.cards}
    assert "KC" in {candidate.card for candidate in reading.unread}


def test_a_card_far_smaller_than_the_others_is_among_the_unread():
    # phone_114 enlarged to 3000 px: a speck of its wooden table, under a quarter the size of the
    # 6S's index, reads as a 2D. Cards of one photo lie at about one distance: offered, not counted.
    with Image.open(PHOTOS / "phone_114.jpg") as image:
        enlarged = image.convert("RGB").resize((3000, 3000), Image.Resampling.BICUBIC)
    buffer = io.BytesIO()
    enlarged.save(buffer, "JPEG", quality=92)

    reading = read_photo(buffer.getvalue())

    assert [card.card for card in reading.cards] == ["6S"]
    speck = next(candidate for candidate in reading.unread if candidate.card == "2D")
    assert speck.confidence >= MIN_CONFIDENCE
    assert (speck.box[2] - speck.box[0]) * 4 < reading.cards[0].box[2] - reading.cards[0].box[0]


def _with_exif_orientation(path: Path, orientation: int, turn: int) -> bytes:
    """The photo stored turned by ``turn`` degrees, with the EXIF tag that turns it back."""
    with Image.open(path) as image:
        stored = image.convert("RGB").transpose(turn)
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    stored.save(buffer, "JPEG", quality=95, exif=exif)
    return buffer.getvalue()


def test_exif_orientation_is_undone_and_boxes_are_in_the_upright_image():
    path = PHOTOS / "phone_010.jpg"
    # Orientation 6 means "rotate 90 degrees clockwise to display": store it turned the other way.
    upload = _with_exif_orientation(path, 6, Image.Transpose.ROTATE_90)
    upright = load_image(path)

    assert load_image(upload).shape == upright.shape
    read = read_cards(upload)
    plain = read_cards(path)
    assert {d.card for d in read} == {d.card for d in plain} == {"6S"}
    # The box lies where the card is in the upright picture, up to JPEG re-encoding.
    assert np.allclose(read[0].box, plain[0].box, atol=12)


def test_photo_turned_sideways_is_still_read():
    with Image.open(PHOTOS / "win_029.jpg") as image:
        turned = image.rotate(90, expand=True)
    buffer = io.BytesIO()
    turned.save(buffer, "JPEG", quality=95)

    read = cards_read(buffer.getvalue())

    shown = set(EXPECTED[0][1].split())
    assert read <= shown
    assert len(read) >= EXPECTED[0][2] - 2


def test_photo_flattened_as_by_a_camera_at_a_slant_is_still_read():
    # Height squeezed to 9/16: indices come out flat, as on a card seen from low down.
    with Image.open(PHOTOS / "phone_021.jpg") as image:
        flattened = image.convert("RGB").resize((image.width, round(image.height * 9 / 16)))
    buffer = io.BytesIO()
    flattened.save(buffer, "JPEG", quality=92)

    assert cards_read(buffer.getvalue()) == {"QH", "KS"}


def test_photo_flattened_as_by_a_camera_low_over_the_table_is_still_read():
    # Height squeezed 2.6 times, as on a card seen from about 23 degrees above the table.
    with Image.open(PHOTOS / "phone_021.jpg") as image:
        flattened = image.convert("RGB").resize((image.width, round(image.height / 2.6)))
    buffer = io.BytesIO()
    flattened.save(buffer, "JPEG", quality=92)

    read = cards_read(buffer.getvalue())

    assert read <= {"QH", "KS"}
    assert read


def test_an_index_the_screen_passes_only_stretched_back_is_read():
    # win_004's jack of clubs, flattened by the webcam's slant: as it is, the perceptron screen
    # drops its index; widened 16:9 it passes, and the networks read it.
    assert "JC" in {detection.card for detection in read_once("win_004.jpg")}


@pytest.mark.parametrize("name", ["win_000.jpg", "blackdeck_024.jpg"])
def test_a_turned_photo_without_a_joker_reads_none(name):
    # Stretched views of these photos turned read a card's print as "Joker" at 0.98 and more: a
    # joker is only read in the photo as it is.
    with Image.open(PHOTOS / name) as image:
        turned = image.convert("RGB").rotate(90, expand=True)
    buffer = io.BytesIO()
    turned.save(buffer, "JPEG", quality=92)

    assert "JK" not in cards_read(buffer.getvalue())


@pytest.mark.parametrize(
    "upload",
    [
        b"",
        b"not an image at all",
        (PHOTOS / "win_029.jpg").read_bytes()[:2000],
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 64,
    ],
    ids=["empty", "text", "truncated-jpeg", "broken-png"],
)
def test_unreadable_input_raises_unreadable_image(upload):
    with pytest.raises(UnreadableImage):
        read_cards(upload)


def test_unreadable_image_is_a_value_error(tmp_path):
    bad = tmp_path / "photo.jpg"
    bad.write_text("hello")

    with pytest.raises(ValueError):
        load_image(bad)


def test_missing_file_raises_unreadable_image(tmp_path):
    with pytest.raises(UnreadableImage):
        read_cards(tmp_path / "nothing.jpg")


def test_blank_photo_has_no_cards():
    buffer = io.BytesIO()
    Image.new("RGB", (640, 480), "white").save(buffer, "PNG")

    assert read_cards(buffer.getvalue()) == []


def test_heic_upload_is_read():
    with Image.open(PHOTOS / "phone_010.jpg") as image:
        buffer = io.BytesIO()
        image.save(buffer, "HEIF", quality=90)

    assert cards_read(buffer.getvalue()) == {"6S"}


def test_a_photo_without_specks_is_read_as_it_is():
    pixels = load_image(PHOTOS / "win_016.jpg", max_side=WORKING_SIDE)

    assert despeckled(pixels) is pixels


def test_a_photo_speckled_with_salt_and_pepper_noise_reads_as_the_photo_does():
    """Some photos are copies speckled so: the specks are taken out before the indices are
    looked for (read with its specks, this 18-card fan gave 14 of its cards)."""
    cards = "3S 4S 4D 4C 5S 5H 5C 8S 8H 9S 10D 10C JC QD KC AS AD AC"
    shown = set(cards.split())
    speckled = transformed(PHOTOS / "win_016.jpg", 0, None, noise=0.02)

    read = cards_read(speckled)

    assert not read - shown
    assert len(read) >= 16, f"missed: {shown - read}"
