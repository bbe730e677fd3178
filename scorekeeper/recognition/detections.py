"""What ``read_cards`` returns, and how sure a reading must be to stand unflagged.

Kept apart from reader.py, and free of numpy, OpenCV and ONNX Runtime, because the app's models
import ``SURE_CONFIDENCE`` and every management command imports the models.
"""

from dataclasses import dataclass

# The largest photo read: decompression bombs are refused, and 50 megapixels is well above any
# phone camera. The app may accept less (DJANGO_PHOTO_MAX_MEGAPIXELS), never more.
MAX_PIXELS = 50_000_000

# Cards read less surely than this are shown flagged, for the player to check before a meld is
# checked or a hand scored.
SURE_CONFIDENCE = 0.95


@dataclass(frozen=True)
class Detection:
    """One physical card read from a photo.

    ``box`` is ``(x0, y0, x1, y1)`` in pixels of the upright image, as a browser shows it (EXIF
    orientation applied), at the uploaded resolution. It bounds the corner index read, or both
    corner indices when the card's two corners were seen.
    """

    card: str
    confidence: float
    box: tuple[int, int, int, int]
