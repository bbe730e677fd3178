"""Playing-card photo recognition: ``read_cards(image)`` lists the cards a photo shows.

Imports nothing from Django. See README.md in this folder.
"""

from .images import UnreadableImage, load_image
from .reader import SURE_CONFIDENCE, Detection, read_cards

__all__ = ["SURE_CONFIDENCE", "Detection", "UnreadableImage", "load_image", "read_cards"]
