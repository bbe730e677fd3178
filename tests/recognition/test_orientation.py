"""Corner indices read the right way up whatever the card's orientation.

win_017 (photos/ATTRIBUTION.md) is a spread of eleven cards lying every way: some corners are
upright, some upside down (a card's second index, or a card laid facing the other way), some in
between. Both orientations of a rank-above-suit pair are tried (recognizer/corners.py), so each
is turned upright before it is read.
"""

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from recognizer import read_cards
from recognizer.images import load_image_scaled
from recognizer.reader import MIN_CONFIDENCE, WORKING_SIDE, read_corners

# slow: a real photo through the networks.
pytestmark = pytest.mark.slow

SPREAD = Path(__file__).with_name("photos") / "win_017.jpg"
CARDS = {"2C", "2D", "3H", "4H", "6C", "6H", "6S", "7D", "10H", "JH", "JS"}


def upright_angle(down: np.ndarray) -> float:
    """How far a corner is turned from upright, -180 to 180 degrees (0: its "down" is down)."""
    return float(np.degrees(np.arctan2(-down[0], down[1])))


def test_a_spread_reads_indices_facing_both_ways_and_in_between():
    pixels, _scale = load_image_scaled(SPREAD, max_side=WORKING_SIDE)

    corners = read_corners(pixels, min_confidence=MIN_CONFIDENCE)

    assert {corner.card for corner in corners} == CARDS  # every card, nothing else
    angles = [abs(upright_angle(corner.down)) for corner in corners]
    assert sum(angle <= 30 for angle in angles) >= 5  # upright
    assert sum(angle >= 150 for angle in angles) >= 5  # upside down
    assert sum(30 < angle < 150 for angle in angles) >= 3  # in between


@pytest.mark.parametrize("turn", [45, 180, 300])
def test_the_spread_turned_reads_the_same_cards(turn):
    with Image.open(SPREAD) as image:
        turned = image.convert("RGB").rotate(turn, expand=True, fillcolor=(128, 128, 128))
    buffer = io.BytesIO()
    turned.save(buffer, "JPEG", quality=92)

    assert {detection.card for detection in read_cards(buffer.getvalue())} == CARDS
