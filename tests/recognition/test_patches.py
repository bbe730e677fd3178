"""Patches sampled from a photo as if it were stretched (the reader's views)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from recognizer.corners import (
    NETWORK_HEIGHT,
    NETWORK_WIDTH,
    Candidates,
    extract_patches,
    find_candidates,
)
from recognizer.images import load_image

PHOTO = Path(__file__).with_name("photos") / "win_029.jpg"
SIZE = (NETWORK_WIDTH, NETWORK_HEIGHT)


@pytest.fixture(scope="module")
def photo():
    pixels = load_image(PHOTO)
    candidates = find_candidates(pixels)
    return pixels, Candidates(candidates.first[:300], candidates.second[:300])


def test_no_stretch_is_the_photo_as_it_is(photo):
    pixels, candidates = photo

    assert np.array_equal(
        extract_patches(pixels, candidates, SIZE, (1.0, 1.0)),
        extract_patches(pixels, candidates, SIZE),
    )


@pytest.mark.parametrize("stretch", [(16 / 9, 1.0), (1.0, 2.6)])
def test_stretched_patches_are_those_of_the_stretched_photo(photo, stretch):
    pixels, candidates = photo
    stretched = cv2.resize(
        pixels, None, fx=stretch[0], fy=stretch[1], interpolation=cv2.INTER_CUBIC
    )
    factor = np.array(stretch)
    moved = Candidates(candidates.first * factor, candidates.second * factor)
    expected = extract_patches(stretched, moved, SIZE).astype(float)

    sampled = extract_patches(pixels, candidates, SIZE, stretch).astype(float)
    unstretched = extract_patches(pixels, candidates, SIZE).astype(float)

    # Alike up to resampling, and much closer than the patches of the photo as it is.
    assert np.abs(sampled - expected).mean() < 6
    assert np.abs(sampled - expected).mean() < 0.5 * np.abs(unstretched - expected).mean()
