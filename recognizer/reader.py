"""Reading the cards in a photo: find corner indices, classify them, merge each card's corners."""

from dataclasses import dataclass

import numpy as np

from .cards import BACKGROUND, JOKER
from .corners import Candidates, despeckled, extract_patches, find_candidates
from .detections import Detection, Reading
from .features import patch_features
from .images import ImageSource, load_image_scaled
from .model import CornerModel, default_joker_network, default_model, default_network

# Photos are read at most this large: enough for the indices, bounded time on 12-megapixel photos.
WORKING_SIDE = 1280
# The thresholds a card read must pass to count (Thresholds), chosen on the development photos
# by the rule of `python -m tools.recognition.evaluate --cross-validate` (tools/recognition/
# evaluate.py, choose_thresholds): the best F1 at a precision of at least 0.98 in every group,
# since a card read wrong costs more than a card missed (the count check offers a missed one).
MIN_CONFIDENCE = 0.82
# A joker costs 50 points: it must be read more surely (never chosen under 0.95).
JOKER_CONFIDENCE = 0.95
# Light print on a dark card (the black deck, read through its negative by networks that saw
# few such cards) is misread more often: it needs this.
LIGHT_CONFIDENCE = 0.98
# A joker counts only when its word is read in at least this many letter pairs: one pair of
# glyphs read as "Jo" or "ke" is as often a face card's print (development photos: every joker
# read in two to five pairs; of the false jokers read at 0.6 or more, ten in one pair, two in two).
JOKER_PAIRS = 2
# Joker readings this many letter spacings apart or closer are one card (see _group_jokers).
JOKER_REACH = 8.0
# Corners read at least this well count towards a card; a card needs MIN_CONFIDENCE in all.
CORNER_CONFIDENCE = 0.5
# The cards of one photo lie at about the same distance from the camera: a card whose index is
# less than this share of the largest index read counts as unread (ink or texture read as a
# tiny index; the smallest card read right in the development photos is a third of the largest).
LEAST_SIZE = 0.3
# Cards read too weakly to count, at most this many of the strongest, are offered to the player as
# where a missed card may be (see read_photo).
UNREAD_SHOWN = 6
# An unread reading whose box lies this much inside a card read is that card seen again: not shown.
UNREAD_OVERLAP = 0.5
# Candidates the perceptron finds at least this likely to be an index go to the network.
SCREEN_CONFIDENCE = 0.1
# Candidates screened at once: bounds the memory their features take.
SCREEN_BATCH = 1000
# Readings this weak are dropped before overlapping readings of one index are compared.
READING_CONFIDENCE = 0.3
# Each index is read from the photo as it is, widened and heightened 16:9 and 2.6 times: an index
# flattened by a camera at a slant (16:9 at about 35 degrees above the table, 2.6 at about 23), or
# by a photo stretched to another shape, reads better stretched back.
VIEWS = ((1.0, 1.0), (16 / 9, 1.0), (1.0, 16 / 9), (2.6, 1.0), (1.0, 2.6))
# The screen passes a candidate that looks like an index in one of these views: a webcam's
# flattened index, dropped as it is, the network read right stretched back (see
# docs/recognizer-history.md). Only the RESCREENED candidates likeliest as they are are looked at
# stretched: a textured photo has 12,000 candidates, and looking at all of them three times took
# seconds.
SCREENED_VIEWS = VIEWS[:3]
RESCREENED = 500
# A candidate the networks read as background, more likely than not, in the photo as it is, is
# not read stretched. Of the 587 indices the development photos read best stretched, 8 were read
# so as they are, 7 of them wrong cards (the eighth reads from another candidate); without them
# every figure is the same or better, as stored, turned, speckled, resized and held out, and a
# photo reads a fifth faster, the worst case two fifths (docs/recognizer-history.md).
STRETCHED_BELOW = 0.5
# The networks read at most this many screened candidates, the likeliest: a development photo
# passes at most 326, a photo of specks 1,964 (seconds of the networks' time).
READ_AT_MOST = 600


@dataclass(frozen=True)
class _Corner:
    card: str
    confidence: float
    centre: np.ndarray
    down: np.ndarray
    spacing: float
    outline: np.ndarray  # (4, 2) patch corners
    light: bool = False  # light print on a dark card (the black deck)


@dataclass(frozen=True)
class Thresholds:
    """What a card needs to count as read; ``evaluate --cross-validate`` chooses them on some
    scenes of the development photos and measures them on the others."""

    min_confidence: float = MIN_CONFIDENCE
    joker_confidence: float = JOKER_CONFIDENCE
    light_confidence: float = LIGHT_CONFIDENCE
    least_size: float = LEAST_SIZE

    def sure(self, reading: "CardReading") -> bool:
        """Whether a reading is sure enough to count: a joker or light print needs more than
        other cards, and a joker its word seen in at least ``JOKER_PAIRS`` letter pairs."""
        needed = self.min_confidence
        if reading.light:
            needed = max(needed, self.light_confidence)
        if reading.detection.card == JOKER:
            if reading.corners < JOKER_PAIRS:
                return False
            needed = max(needed, self.joker_confidence)
        return reading.confidence >= needed


@dataclass(frozen=True)
class CardReading:
    """One card as its corners read, before any threshold: ``confidence`` unrounded, ``size`` its
    largest index's rank-to-suit spacing in pixels of the working image, ``corners`` how many
    readings make it (a card's two corners, a joker's letter pairs), ``light`` whether it is light
    print on a dark card."""

    detection: Detection
    confidence: float
    size: float
    corners: int
    light: bool


def read_cards(
    image: ImageSource, *, min_confidence: float = MIN_CONFIDENCE, model: CornerModel | None = None
) -> list[Detection]:
    """The cards visible in ``image`` (a path, bytes, binary file or upright Pillow image), most
    confident first.

    Raises ``UnreadableImage`` when the input cannot be decoded as an image.
    """
    return read_photo(image, min_confidence=min_confidence, model=model).cards


def read_photo(
    image: ImageSource, *, min_confidence: float = MIN_CONFIDENCE, model: CornerModel | None = None
) -> Reading:
    """``read_cards``'s cards, and beside them the strongest readings too weak to count.

    Those ``unread`` are where a missed card most likely is: at most ``UNREAD_SHOWN``, most
    confident first, each read at least ``CORNER_CONFIDENCE`` and lying mostly outside the boxes
    of the cards read. They never change which cards are read.
    """
    readings = read_card_readings(image, floor=min(min_confidence, CORNER_CONFIDENCE), model=model)
    return counted(readings, Thresholds(min_confidence=min_confidence))


def read_card_readings(
    image: ImageSource,
    *,
    floor: float = CORNER_CONFIDENCE,
    model: CornerModel | None = None,
) -> list[CardReading]:
    """Every card whose corners read at least ``floor``, however sure, in the order found."""
    pixels, scale = load_image_scaled(image, max_side=WORKING_SIDE)
    corners = read_corners(despeckled(pixels), min_confidence=floor, model=model)
    height, width = np.array(pixels.shape[:2]) * scale
    readings = []
    for group in _group_corners_into_cards(corners):
        outline = np.concatenate([corner.outline for corner in group]) * scale
        x0, y0 = np.clip(outline.min(axis=0), 0, [width, height])
        x1, y1 = np.clip(outline.max(axis=0), 0, [width, height])
        confidence = _card_confidence(group)
        detection = Detection(
            card=group[0].card,
            confidence=round(confidence, 4),
            box=(int(x0), int(y0), int(round(x1)), int(round(y1))),
        )
        size = max(corner.spacing for corner in group)
        light = any(corner.light for corner in group)
        readings.append(CardReading(detection, confidence, size, len(group), light))
    return readings


def counted(readings: list[CardReading], thresholds: Thresholds) -> Reading:
    """The cards that count under ``thresholds``, and the strongest of the others as unread."""
    detections, unread = [], []
    sure = [thresholds.sure(reading) for reading in readings]
    # The largest index among the cards read well enough to count sets the least size.
    largest = max((r.size for r, is_sure in zip(readings, sure, strict=True) if is_sure), default=0)
    for reading, is_sure in zip(readings, sure, strict=True):
        large = reading.size >= thresholds.least_size * largest
        (detections if is_sure and large else unread).append(reading.detection)
    unread = [
        candidate
        for candidate in unread
        if all(_inside(candidate.box, card.box) < UNREAD_OVERLAP for card in detections)
    ]
    return Reading(
        cards=sorted(detections, key=lambda detection: -detection.confidence),
        unread=sorted(unread, key=lambda detection: -detection.confidence)[:UNREAD_SHOWN],
    )


def _inside(box: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> float:
    """The share of ``box``'s area that lies inside ``other``."""
    width = min(box[2], other[2]) - max(box[0], other[0])
    height = min(box[3], other[3]) - max(box[1], other[1])
    area = max(box[2] - box[0], 1) * max(box[3] - box[1], 1)
    return max(width, 0) * max(height, 0) / area


def read_corners(
    pixels: np.ndarray, *, min_confidence: float, model: CornerModel | None = None
) -> list[_Corner]:
    """Every corner index read in an RGB array, one reading per index.

    The perceptron (``model``) screens every candidate; the two networks read those that pass, in
    the photo as it is and, unless they read it as background there, in each of the other
    ``VIEWS``; the strongest reading of an index stands.
    """
    model = model or default_model()
    network, joker_network = default_network(), default_joker_network()
    candidates = find_candidates(pixels)
    if len(candidates) == 0:
        return []
    # In batches: the features of a textured photo's 12,000 candidates at once took 600 MB.
    screened = np.concatenate(
        [
            _likely_index(model, pixels, batch)
            for batch in (
                candidates[start : start + SCREEN_BATCH]
                for start in range(0, len(candidates), SCREEN_BATCH)
            )
        ]
    )
    # The likeliest are looked at stretched too: a bounded share of the work, whatever the photo.
    likeliest = np.argsort(-screened, kind="stable")[:RESCREENED]
    for stretch in SCREENED_VIEWS[1:]:
        screened[likeliest] = np.maximum(
            screened[likeliest], _likely_index(model, pixels, candidates[likeliest], stretch)
        )
    passed = np.flatnonzero(screened >= SCREEN_CONFIDENCE)
    if len(passed) > READ_AT_MOST:
        passed = np.sort(passed[np.argsort(-screened[passed], kind="stable")[:READ_AT_MOST]])
    if len(passed) == 0:
        return []
    candidates = candidates[passed]
    background = network.classes.index(BACKGROUND)

    def reading_of(which: np.ndarray, stretch: tuple[float, float]) -> np.ndarray:
        patches = extract_patches(pixels, candidates[which], network.size, stretch)
        # Both networks have learned every card and the joker: their average reads the index.
        return (network.probabilities(patches) + joker_network.probabilities(patches)) / 2

    every = np.arange(len(candidates))
    readings, read = [reading_of(every, VIEWS[0])], [every]
    stretched = np.flatnonzero(readings[0][:, background] < STRETCHED_BELOW)
    for stretch in VIEWS[1:]:
        reading = reading_of(stretched, stretch)
        # A joker is read in the photo as it is: stretched, other print reads as "Joker".
        reading[:, network.classes.index(JOKER)] = 0.0
        readings.append(reading)
        read.append(stretched)
    probabilities = np.concatenate(readings)
    candidates = candidates[np.concatenate(read)]
    best = probabilities.argmax(axis=1)
    confidence = probabilities[np.arange(len(best)), best]
    keep = np.flatnonzero((best != background) & (confidence >= READING_CONFIDENCE))
    keep = keep[np.argsort(-confidence[keep], kind="stable")]
    kept = candidates[keep]
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
    chosen_candidates = kept[chosen]
    # The strongest of the overlapping readings stands: a second look at slightly turned, scaled
    # and shifted patches, averaged, lost more right cards than wrong ones (see
    # docs/recognizer-history.md).
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
                light=bool(chosen_candidates.light[position]),
            )
        )
    return corners


def _likely_index(
    model: CornerModel,
    pixels: np.ndarray,
    candidates: Candidates,
    stretch: tuple[float, float] = VIEWS[0],
) -> np.ndarray:
    """(N,) how likely the perceptron finds each candidate an index, in the view ``stretch``."""
    patches = extract_patches(pixels, candidates, stretch=stretch)
    return 1.0 - model.probabilities(patch_features(patches))[:, model.classes.index(BACKGROUND)]


def _card_confidence(group: list[_Corner]) -> float:
    """Both corners of one card read alike are two pieces of evidence: 0.6 and 0.6 make 0.84.

    The letter pairs of a joker's word are one piece of evidence: its strongest reading counts.
    """
    if group[0].card == JOKER:
        return max(corner.confidence for corner in group)
    return 1.0 - float(np.prod([1.0 - corner.confidence for corner in group]))


def _group_corners_into_cards(corners: list[_Corner]) -> list[list[_Corner]]:
    """Pair the two corner indices of one card; equal cards elsewhere (a second deck) stay apart.

    A card's indices sit at opposite corners and read in opposite directions: from the top-left
    index, the other lies down and to the right, at a distance set by the index's size.
    """
    groups = _group_jokers([corner for corner in corners if corner.card == JOKER])
    used = set()
    for position, corner in enumerate(corners):
        if position in used or corner.card == JOKER:
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


def _group_jokers(jokers: list[_Corner]) -> list[list[_Corner]]:
    """One group per joker card.

    A joker's index is the word "Joker": the network reads several of its letter pairs, either
    way round, and the card's two words lie a few letters apart. Jokers read within
    ``JOKER_REACH`` letter spacings of each other are one card, so two jokers side by side read as
    one (the player adds the other) rather than one joker as three.
    """
    groups: list[list[_Corner]] = []
    for joker in jokers:
        near = [
            group
            for group in groups
            if any(
                np.linalg.norm(other.centre - joker.centre)
                <= JOKER_REACH * max(other.spacing, joker.spacing)
                for other in group
            )
        ]
        groups = [group for group in groups if not any(group is other for other in near)]
        groups.append([corner for group in near for corner in group] + [joker])
    return groups


def _opposite_corners(one: _Corner, other: _Corner) -> bool:
    """Whether two indices read alike are the two corners of one card.

    The bounds, in index sizes (rank-to-suit spacings), hold the two corners of every card read
    twice in the development photos: large-index decks, cards flattened by a photo squashed to a
    square, and phone photos in perspective, where the far index looks up to 0.6 times smaller.
    """
    if float(one.down @ other.down) > -0.8:
        return False
    size = (one.spacing + other.spacing) / 2
    if abs(one.spacing - other.spacing) > 0.65 * size:
        return False
    offset = other.centre - one.centre
    right = np.array([one.down[1], -one.down[0]])
    along_down, along_right = offset @ one.down, offset @ right
    # Seen from either index, the other lies down and to the right in its own upright frame.
    return 2 * size <= along_down <= 14 * size and 1.5 * size <= along_right <= 11 * size
