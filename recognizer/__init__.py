"""Playing-card photo recognition: ``read_cards(image)`` lists the cards a photo shows, and
``read_photo(image)`` also where the recognizer looked but was unsure.

Imports nothing from Django. Importing the package is cheap: numpy, OpenCV and ONNX Runtime load
with the first ``read_cards`` call, Pillow and numpy when ``load_image`` or ``UnreadableImage`` is
first asked for, so the app's settings and models read ``MAX_PIXELS`` and ``SURE_CONFIDENCE``
from ``recognizer/limits.py`` at no cost. See README.md in this folder.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .detections import Detection, Reading
from .limits import MAX_PIXELS, SURE_CONFIDENCE

if TYPE_CHECKING:
    from .images import ImageSource, UnreadableImage, load_image

__all__ = [
    "MAX_PIXELS",
    "SURE_CONFIDENCE",
    "Detection",
    "Reading",
    "UnreadableImage",
    "load_image",
    "read_cards",
    "read_photo",
]


def read_cards(image: "ImageSource", **options: Any) -> list[Detection]:
    """The cards visible in ``image`` (a path, bytes or binary file), most confident first.

    ``reader.read_cards``, which takes the same options, imported with the first photo.
    """
    from .reader import read_cards as read_photo

    return read_photo(image, **options)


def read_photo(image: "ImageSource", **options: Any) -> Reading:
    """``read_cards``'s cards and the strongest readings too weak to count: ``reader.read_photo``,
    imported with the first photo."""
    from .reader import read_photo as read

    return read(image, **options)


def __getattr__(name: str) -> Any:
    if name in ("UnreadableImage", "load_image"):
        return getattr(import_module(".images", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
