"""The photos evaluate reads: as stored, or turned, resized and speckled first."""

import io
from pathlib import Path

import numpy as np
from PIL import Image

from tools.recognition.evaluate import transformed

PHOTO = Path(__file__).with_name("photos") / "win_004.jpg"


def grey(source) -> np.ndarray:
    with Image.open(source) as image:
        return np.asarray(image.convert("L"), np.int16)


def test_a_photo_asked_as_stored_is_read_from_its_file():
    assert transformed(PHOTO, 0, None, 0.0) == PHOTO


def test_noise_speckles_about_that_share_of_pixels_the_same_each_run():
    speckled = transformed(PHOTO, 0, None, 0.1)

    assert transformed(PHOTO, 0, None, 0.1) == speckled
    changed = np.abs(grey(io.BytesIO(speckled)) - grey(PHOTO)) > 60
    # Half of the drawn pixels are made black, half white; a pixel already near that shade does
    # not change much, and the JPEG smears a speck a little into its neighbours.
    assert 0.05 < changed.mean() < 0.15
    assert transformed(PHOTO, 0, None, 0.02) != speckled
