"""Reading the cards in a photo: find corner indices, classify them, merge each card's corners."""

from dataclasses import dataclass

import cv2
import numpy as np

from .cards import BACKGROUND
from .corners import Candidates, extract_patches, find_candidates
from .features import patch_features
from .images import ImageSource, load_image_scaled
from .model import CornerModel, PatchNetwork, default_model, default_network

# Photos are read at most this large: enough for the indices, bounded time on 12-megapixel photos.
WORKING_SIDE = 1280
# A card read wrong costs more than a card missed, so weak readings are dropped.
MIN_CONFIDENCE = 0.925
# Corners read at least this well count towards a card; a card needs MIN_CONFIDENCE in all.
CORNER_CONFIDENCE = 0.5
# Candidates the perceptron finds at least this likely to be an index go to the network.
SCREEN_CONFIDENCE = 0.1
# Readings this weak are dropped before overlapping readings of one index are compared.
READING_CONFIDENCE = 0.3
# Each index is also read from the photo widened and heightened 16:9: an index flattened by a
# camera at a slant, or by a photo stretched to another shape, reads better stretched back.
STRETCHES = ((16 / 9, 1.0), (1.0, 16 / 9))


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
class _Corner:
    card: str
    confidence: float
    centre: np.ndarray
    down: np.ndarray
    spacing: float
    outline: np.ndarray  # (4, 2) patch corners


def read_cards(
    image: ImageSource, *, min_confidence: float = MIN_CONFIDENCE, model: CornerModel | None = None
) -> list[Detection]:
    """The cards visible in ``image`` (a path, bytes or binary file), most confident first.

    Raises ``UnreadableImage`` when the input cannot be decoded as an image.
    """
    pixels, scale = load_image_scaled(image, max_side=WORKING_SIDE)
    floor = min(min_confidence, CORNER_CONFIDENCE)
    corners = read_corners(pixels, min_confidence=floor, model=model)
    detections = []
    for group in _group_corners_into_cards(corners):
        confidence = _card_confidence(group)
        if confidence < min_confidence:
            continue
        outline = np.concatenate([corner.outline for corner in group]) * scale
        height, width = np.array(pixels.shape[:2]) * scale
        x0, y0 = np.clip(outline.min(axis=0), 0, [width, height])
        x1, y1 = np.clip(outline.max(axis=0), 0, [width, height])
        detections.append(
            Detection(
                card=group[0].card,
                confidence=round(confidence, 4),
                box=(int(x0), int(y0), int(round(x1)), int(round(y1))),
            )
        )
    return sorted(detections, key=lambda detection: -detection.confidence)


def read_corners(
    pixels: np.ndarray,
    *,
    min_confidence: float,
    model: CornerModel | None = None,
    network: PatchNetwork | None = None,
) -> list[_Corner]:
    """Every corner index read in an RGB array, one reading per index.

    The perceptron (``model``) screens every candidate; the network reads those that pass, in the
    photo as it is and in each of its ``STRETCHES``, and the strongest reading of an index stands.
    """
    model = model or default_model()
    network = network or default_network()
    candidates = find_candidates(pixels)
    if len(candidates) == 0:
        return []
    screened = model.probabilities(patch_features(extract_patches(pixels, candidates)))
    passed = np.flatnonzero(1.0 - screened[:, model.classes.index(BACKGROUND)] >= SCREEN_CONFIDENCE)
    if len(passed) == 0:
        return []
    candidates = Candidates(candidates.first[passed], candidates.second[passed])
    readings = [network.probabilities(extract_patches(pixels, candidates, network.size))]
    for stretch in STRETCHES:
        stretched = cv2.resize(
            pixels, None, fx=stretch[0], fy=stretch[1], interpolation=cv2.INTER_CUBIC
        )
        factor = np.array(stretch)
        moved = Candidates(candidates.first * factor, candidates.second * factor)
        readings.append(network.probabilities(extract_patches(stretched, moved, network.size)))
    probabilities = np.concatenate(readings)
    views = len(readings)
    candidates = Candidates(
        np.concatenate([candidates.first] * views), np.concatenate([candidates.second] * views)
    )
    best = probabilities.argmax(axis=1)
    confidence = probabilities[np.arange(len(best)), best]
    background = network.classes.index(BACKGROUND)
    keep = np.flatnonzero((best != background) & (confidence >= READING_CONFIDENCE))
    keep = keep[np.argsort(-confidence[keep], kind="stable")]
    kept = Candidates(candidates.first[keep], candidates.second[keep])
    centres, spacings = kept.centre, kept.spacing
    # Readings of one index from different glyph pairs and views overlap: keep the strongest.
    chosen: list[int] = []
    for position in range(len(keep)):
        if not any(
            np.linalg.norm(centres[other] - centres[position])
            < 0.8 * max(spacings[other], spacings[position])
            for other in chosen
        ):
            chosen.append(position)
    if not chosen:
        return []
    chosen_candidates = Candidates(kept.first[chosen], kept.second[chosen])
    # The strongest of the overlapping readings stands: a second look at slightly turned, scaled
    # and shifted patches, averaged, lost more right cards than wrong ones (see README.md).
    chosen_probabilities = probabilities[keep[chosen]]
    outlines = chosen_candidates.corners()
    corners: list[_Corner] = []
    for position, probability in enumerate(chosen_probabilities):
        label = int(probability.argmax())
        if label == background or probability[label] < min_confidence:
            continue
        corners.append(
            _Corner(
                card=network.classes[label],
                confidence=float(probability[label]),
                centre=chosen_candidates.centre[position],
                down=chosen_candidates.down[position],
                spacing=float(chosen_candidates.spacing[position]),
                outline=outlines[position],
            )
        )
    return corners


def _card_confidence(group: list[_Corner]) -> float:
    """Both corners of one card read alike are two pieces of evidence: 0.6 and 0.6 make 0.84."""
    return 1.0 - float(np.prod([1.0 - corner.confidence for corner in group]))


def _group_corners_into_cards(corners: list[_Corner]) -> list[list[_Corner]]:
    """Pair the two corner indices of one card; equal cards elsewhere (a second deck) stay apart.

    A card's indices sit at opposite corners and read in opposite directions: from the top-left
    index, the other lies down and to the right, at a distance set by the index's size.
    """
    groups: list[list[_Corner]] = []
    used = set()
    for position, corner in enumerate(corners):
        if position in used:
            continue
        group = [corner]
        for other_position in range(position + 1, len(corners)):
            other = corners[other_position]
            if other_position in used or other.card != corner.card:
                continue
            if _opposite_corners(corner, other):
                group.append(other)
                used.add(other_position)
                break
        groups.append(group)
    return groups


def _opposite_corners(one: _Corner, other: _Corner) -> bool:
    if float(one.down @ other.down) > -0.8:
        return False
    size = (one.spacing + other.spacing) / 2
    if abs(one.spacing - other.spacing) > 0.4 * size:
        return False
    offset = other.centre - one.centre
    right = np.array([one.down[1], -one.down[0]])
    along_down, along_right = offset @ one.down, offset @ right
    # Seen from either index, the other lies down and to the right in its own upright frame.
    return 4.5 * size <= along_down <= 14 * size and 2.5 * size <= along_right <= 10 * size
