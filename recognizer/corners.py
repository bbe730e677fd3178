"""Finding corner-index candidates: a rank glyph with a suit glyph beside it, at any angle.

Ink (dark or red print on a light card) is split into connected components at three scales. Every
pair of neighbouring components of similar size is a candidate "rank above suit"; the vector from
the first to the second glyph says which way is down on that card, so each candidate is resampled
into a small upright patch that the classifier reads. Both orders of a pair are tried: the
classifier also learns to reject an index read upside down.

Light print on a dark card (a black novelty deck: gold and silver on black) is found the same way
in the negative, where the print is darker than what surrounds it; such glyphs count only on a dark
surround, and their patches are cut from ``dark_card_view``, in which the card reads like a
standard one (dark print on a light card, coloured print red).
"""

from dataclasses import dataclass

import cv2
import numpy as np

# The perceptron screens patches of this size; the network reads larger ones, which keep the lobes
# of a small club.
PATCH_WIDTH = 24
PATCH_HEIGHT = 36
NETWORK_WIDTH = 32
NETWORK_HEIGHT = 48
# Patch size relative to the distance between the two glyph centres.
PATCH_SPAN_X = 1.5
PATCH_SPAN_Y = 2.3
# Glyph sizes searched at each pyramid level, in pixels of that level.
MIN_GLYPH = 5
MAX_GLYPH = 48
THRESHOLD_BLOCK = 25
THRESHOLD_OFFSET = 8
# At most this many candidates per image, nearest pairs first, to bound the time per photo.
MAX_CANDIDATES = 12000
# Light glyphs count only where the card around them is darker than this (brightest channel),
# and where they are this much brighter than it.
DARK_SURROUND = 130
LIGHT_CONTRAST = 30

# Salt-and-pepper noise (some photos are copies speckled so): a pixel this much brighter or darker
# than the median of its 3x3 neighbours is a speck. A photo whose specks are more than this share
# of its pixels is speckled: the 200 development photos as taken, turned or enlarged to 3000
# pixels a side have at most 0.32 % (as the reader sees them), speckled with 2 % noise at least
# 0.98 %.
SPECK_DIFFERENCE = 100
SPECKLED_SHARE = 0.005


@dataclass(frozen=True)
class Candidates:
    """Candidate index pairs of one image, in working-image pixels (arrays of length N)."""

    first: np.ndarray  # (N, 2) centre of the rank glyph
    second: np.ndarray  # (N, 2) centre of the suit glyph
    # (N,) bool: light print on a dark card, read from ``dark_card_view``. None: all dark print.
    light: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.light is None:
            object.__setattr__(self, "light", np.zeros(len(self.first), bool))

    def __len__(self) -> int:
        return len(self.first)

    def __getitem__(self, index) -> "Candidates":
        """The candidates at ``index`` (an index array, a mask or a slice)."""
        return Candidates(self.first[index], self.second[index], self.light[index])

    @property
    def centre(self) -> np.ndarray:
        return (self.first + self.second) / 2

    @property
    def spacing(self) -> np.ndarray:
        return np.linalg.norm(self.second - self.first, axis=1)

    @property
    def down(self) -> np.ndarray:
        return (self.second - self.first) / np.maximum(self.spacing, 1e-6)[:, None]

    def corners(self) -> np.ndarray:
        """(N, 4, 2) patch corners in the image, going round the patch.

        The patch's x axis runs to the card's left, so patches are mirror images of the index.
        Training and reading share this function, so the model learned them that way.
        """
        down = self.down
        mirrored_right = np.stack([-down[:, 1], down[:, 0]], axis=1)
        half_x = (PATCH_SPAN_X * self.spacing / 2)[:, None] * mirrored_right
        half_y = (PATCH_SPAN_Y * self.spacing / 2)[:, None] * down
        centre = self.centre
        return np.stack(
            [
                centre - half_x - half_y,
                centre + half_x - half_y,
                centre + half_x + half_y,
                centre - half_x + half_y,
            ],
            axis=1,
        )


def dark_card_view(rgb: np.ndarray) -> np.ndarray:
    """The photo in the negative, for light print on a dark card: it reads like a standard card.

    Red is the negative of the darkest channel, green and blue that of the brightest: a black card
    turns white, silver (or white) print dark grey and gold (or any coloured) print red, as the
    print of the standard deck's suits of the same colour.
    """
    red, green, blue = cv2.split(rgb)
    negative = cv2.bitwise_not(cv2.max(cv2.max(red, green), blue))
    return cv2.merge([cv2.bitwise_not(cv2.min(cv2.min(red, green), blue)), negative, negative])


def ink_glyphs(rgb: np.ndarray) -> np.ndarray:
    """(M, 4) centre x, centre y, size and lightness (1 for light print on dark) of glyph-like
    ink blobs, searched at three scales."""
    found = []
    level_image = rgb
    factor = 1.0
    for _level in range(3):
        if min(level_image.shape[:2]) < 2 * THRESHOLD_BLOCK:
            break
        # The darkest channel makes both black and red print dark on a white card; the brightest
        # shows light print on a dark card. (OpenCV's are ten times faster than numpy's min and
        # max over an axis of 3.)
        red, green, blue = cv2.split(level_image)
        dark, _ink = _glyphs_at_level(cv2.min(cv2.min(red, green), blue))
        light = _light_glyphs(cv2.max(cv2.max(red, green), blue))
        for glyphs, lightness in ((dark, 0.0), (light, 1.0)):
            scaled = glyphs[:, :3] * factor
            found.append(np.column_stack([scaled, np.full(len(glyphs), lightness)]))
        level_image = cv2.pyrDown(level_image)
        factor *= 2
    if not found:
        return np.zeros((0, 4))
    return np.concatenate(found)


def _light_glyphs(brightest: np.ndarray) -> np.ndarray:
    """Glyphs (rows as ``_glyphs_at_level``'s) of light print that lie on a dark card.

    They are the glyphs of the negative. The surround is the ring between a glyph's box and that
    box grown by half the glyph's size each side: its mean brightness (brightest channel) must be
    below ``DARK_SURROUND``, and the print's (the glyph's pixels in its box) at least
    ``LIGHT_CONTRAST`` above it, so that a dark table's grain or the gaps of dark print rarely pass.
    """
    glyphs, ink = _glyphs_at_level(cv2.bitwise_not(brightest))
    if len(glyphs) == 0:
        return glyphs
    height, width = brightest.shape
    x0, y0, x1, y1 = (glyphs[:, column].astype(np.int64) for column in (3, 4, 5, 6))
    grow = np.maximum(2, glyphs[:, 2].astype(np.int64) // 2)
    outer = (x0 - grow, y0 - grow, x1 + grow, y1 + grow)
    inner = (x0, y0, x1, y1)

    def box_sums(integral: np.ndarray, box) -> np.ndarray:
        left, top = np.clip(box[0], 0, width), np.clip(box[1], 0, height)
        right, bottom = np.clip(box[2], 0, width), np.clip(box[3], 0, height)
        total = integral[bottom, right] - integral[top, right]
        return (total - integral[bottom, left] + integral[top, left]).astype(np.float64)

    brightness = cv2.integral(brightest)  # (height + 1, width + 1)
    area = cv2.integral(np.ones_like(brightest))
    ring = (box_sums(brightness, outer) - box_sums(brightness, inner)) / np.maximum(
        box_sums(area, outer) - box_sums(area, inner), 1
    )
    print_brightness = box_sums(cv2.integral(cv2.bitwise_and(brightest, ink)), inner)
    print_area = box_sums(cv2.integral(ink), inner) / 255
    print_level = print_brightness / np.maximum(print_area, 1)
    return glyphs[(ring < DARK_SURROUND) & (print_level - ring >= LIGHT_CONTRAST)]


def _glyphs_at_level(darkest: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(M, 7) centre x, centre y, size and box (x0, y0, x1, y1) of the glyph-like blobs darker
    than their neighbourhood, and the ink mask they were found in (255 where ink)."""
    ink = cv2.adaptiveThreshold(
        darkest,
        255,
        cv2.ADAPTIVE_THRESH_MEAN_C,
        cv2.THRESH_BINARY_INV,
        THRESHOLD_BLOCK,
        THRESHOLD_OFFSET,
    )
    _count, _labels, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    width = stats[1:, cv2.CC_STAT_WIDTH]
    height = stats[1:, cv2.CC_STAT_HEIGHT]
    area = stats[1:, cv2.CC_STAT_AREA]
    size = np.maximum(width, height)
    keep = (
        (size >= MIN_GLYPH)
        & (size <= MAX_GLYPH)
        & (area >= 10)
        & (area >= 0.12 * width * height)
        & (area <= 0.9 * width * height)
        & (np.maximum(width, height) <= 6 * np.minimum(width, height))
    )
    left, top = stats[1:, cv2.CC_STAT_LEFT], stats[1:, cv2.CC_STAT_TOP]
    boxes = np.column_stack([left, top, left + width, top + height])[keep]
    return np.column_stack([centroids[1:][keep], size[keep], boxes]).astype(np.float64), ink


def find_candidates(rgb: np.ndarray, glyphs: np.ndarray | None = None) -> Candidates:
    """Ordered pairs of neighbouring glyphs that could be a rank above its suit."""
    if glyphs is None:
        glyphs = ink_glyphs(rgb)
    if len(glyphs) < 2:
        return Candidates(np.zeros((0, 2)), np.zeros((0, 2)))
    if glyphs.shape[1] < 4:  # glyphs without lightness: dark print
        glyphs = np.column_stack([glyphs, np.zeros(len(glyphs))])
    order = np.argsort(glyphs[:, 0])
    centres, size, light = glyphs[order, :2], glyphs[order, 2], glyphs[order, 3] > 0
    firsts, seconds, distances = [], [], []
    # Sorted by x, a glyph's partners lie within a window of the sorted list: compare in blocks.
    reach = 2.0 * size.max()
    start = 0
    for index in range(len(centres)):
        while centres[start, 0] < centres[index, 0] - reach:
            start += 1
        others = np.arange(start, len(centres))
        others = others[others != index]
        others = others[np.abs(centres[others, 0] - centres[index, 0]) <= 2.0 * size[index]]
        # Light print pairs only with light print, dark with dark.
        others = others[light[others] == light[index]]
        if len(others) == 0:
            continue
        offset = centres[others] - centres[index]
        distance = np.hypot(offset[:, 0], offset[:, 1])
        bigger = np.maximum(size[others], size[index])
        ratio = size[others] / size[index]
        ok = (
            (distance >= 0.6 * bigger)
            & (distance <= 1.8 * bigger)
            & (ratio >= 0.4)
            & (ratio <= 2.5)
        )
        for other, gap in zip(others[ok], distance[ok] / bigger[ok], strict=True):
            firsts.append(index)
            seconds.append(other)
            distances.append(gap)
    if not firsts:
        return Candidates(np.zeros((0, 2)), np.zeros((0, 2)))
    firsts = np.array(firsts)
    seconds = np.array(seconds)
    if len(firsts) > MAX_CANDIDATES:
        nearest = np.argsort(np.array(distances), kind="stable")[:MAX_CANDIDATES]
        firsts, seconds = firsts[nearest], seconds[nearest]
    return Candidates(centres[firsts], centres[seconds], light[firsts])


def extract_patches(
    rgb: np.ndarray,
    candidates: Candidates,
    size: tuple[int, int] = (PATCH_WIDTH, PATCH_HEIGHT),
    stretch: tuple[float, float] = (1.0, 1.0),
) -> np.ndarray:
    """(N, height, width, 3) upright ``uint8`` patches, one per candidate (size: width, height).

    With ``stretch`` (x, y), each patch is the one the candidate would give in the image
    stretched that much, sampled from the image itself. Each patch is sampled from the pyramid
    level where it is about patch-sized, so large indices are not aliased.
    """
    count = len(candidates)
    width, height = size
    patches = np.zeros((count, height, width, 3), np.uint8)
    if count == 0:
        return patches
    stretched = np.array(stretch)
    corners = (
        Candidates(candidates.first * stretched, candidates.second * stretched).corners()
        / stretched
    )
    height_in_image = np.linalg.norm(corners[:, 3] - corners[:, 0], axis=1)
    level = np.clip(np.floor(np.log2(np.maximum(height_in_image / height, 1e-6))), 0, 3)
    level_image = rgb
    grid_x = (np.arange(width) + 0.5) / width
    grid_y = (np.arange(height) + 0.5) / height
    for current in range(4):
        chosen = np.flatnonzero(level == current)
        if len(chosen):
            factor = 2.0**current
            top_left = corners[chosen, 0] / factor
            along_x = (corners[chosen, 1] - corners[chosen, 0]) / factor
            along_y = (corners[chosen, 3] - corners[chosen, 0]) / factor
            # A point is top left + x along the top + y down the side: a row's part and a
            # column's part, added once at full size, straight into remap's float32 maps.
            across = (top_left - 0.5)[:, None, :] + grid_x[None, :, None] * along_x[:, None, :]
            down = grid_y[None, :, None] * along_y[:, None, :]
            # One patch per row keeps the maps under remap's 32767-row limit.
            maps = np.empty((2, len(chosen), height * width), np.float32)
            for axis in (0, 1):
                np.add(
                    across[:, None, :, axis],
                    down[:, :, None, axis],
                    out=maps[axis].reshape(len(chosen), height, width),
                )
            light = candidates.light[chosen]
            for source, rows in ((level_image, ~light), (None, light)):
                if not rows.any():
                    continue
                if source is None:
                    source = dark_card_view(level_image)
                every = rows.all()
                sampled = cv2.remap(
                    source,
                    maps[0] if every else maps[0][rows],
                    maps[1] if every else maps[1][rows],
                    cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE,
                )
                patches[chosen[rows]] = sampled.reshape(-1, height, width, 3)
        if current < 3 and np.any(level > current):
            level_image = cv2.pyrDown(level_image)
    return patches


def despeckled(pixels: np.ndarray) -> np.ndarray:
    """A speckled photo with each speck replaced by its neighbours' median, the rest as it was;
    any other photo as it is (the same array).

    Only the specks change: a median filter over the whole photo thins small indices' strokes
    and read clean and speckled photos worse (recognizer/README.md, "Speckled")."""
    grey = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
    specks = cv2.absdiff(grey, cv2.medianBlur(grey, 3)) > SPECK_DIFFERENCE
    if specks.mean() <= SPECKLED_SHARE:
        return pixels
    return np.where(specks[..., None], cv2.medianBlur(pixels, 3), pixels)
