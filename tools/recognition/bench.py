"""Time the recognizer: ``python -m tools.recognition.bench [PHOTO]``.

Reads one photo as a 640x640 JPEG and as a 12-megapixel (4000x3000) JPEG, several times each on
one core, and prints seconds per photo and the process's peak memory. ``--speckled`` reads a
12-megapixel photo of 60,000 dark specks instead: the most candidates a photo gives (12,000),
the recognizer's worst case.
"""

import argparse
import io
import os
import resource
import time
from pathlib import Path

import numpy as np
from PIL import Image

from recognizer.model import default_joker_network, default_model, default_network
from recognizer.reader import read_cards

DEFAULT_PHOTO = Path(__file__).parents[2] / "tests" / "recognition" / "photos" / "win_029.jpg"


def encoded(photo: Path, size: tuple[int, int]) -> bytes:
    with Image.open(photo) as image:
        resized = image.convert("RGB").resize(size, Image.Resampling.BICUBIC)
    buffer = io.BytesIO()
    resized.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def speckled() -> bytes:
    """A 4000x3000 JPEG of dark specks and strokes on a light ground, glyph-sized: every pair of
    neighbouring specks is a candidate index."""
    rng = np.random.default_rng(1)
    pixels = np.full((3000, 4000, 3), 220, np.uint8)
    for _ in range(60000):
        y, x, size = rng.integers(0, 2990), rng.integers(0, 3990), rng.integers(3, 10)
        pixels[y : y + size, x : x + size // 2 + 1] = rng.integers(0, 120)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photo", type=Path, nargs="?", default=DEFAULT_PHOTO)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--speckled", action="store_true", help="the worst case, not a photo")
    arguments = parser.parse_args()
    # One core, as on a busy web worker.
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    started = time.perf_counter()
    default_model()
    default_network()
    default_joker_network()
    print(f"model load: {time.perf_counter() - started:.3f} s")
    photos = [
        ("640x640", encoded(arguments.photo, (640, 640))),
        ("4000x3000 (12 MP)", encoded(arguments.photo, (4000, 3000))),
    ]
    if arguments.speckled:
        photos = [("4000x3000 specks", speckled())]
    for label, photo in photos:
        read_cards(photo)
        started = time.perf_counter()
        for _ in range(arguments.runs):
            cards = read_cards(photo)
        seconds = (time.perf_counter() - started) / arguments.runs
        print(f"{label}: {seconds:.3f} s per photo, {len(cards)} cards")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
