"""What ``read_cards`` and ``read_photo`` return.

Kept apart from reader.py, and free of numpy, OpenCV and ONNX Runtime, so that importing the
package stays cheap.
"""

from dataclasses import dataclass


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


@dataclass(frozen=True)
class Reading:
    """What ``read_photo`` returns: the cards read, most confident first, and the strongest
    readings too weak to count (``unread``), where a missed card most likely is."""

    cards: list[Detection]
    unread: list[Detection]
