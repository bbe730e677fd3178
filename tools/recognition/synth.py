"""Synthetic training scenes: cards rendered from freely licensed SVG decks, laid out like photos.

Training only (needs ``resvg-py``, and ``rsvg-convert`` for the KDE decks; see
requirements-train.txt). Each scene records where every card went, so each corner-index candidate
found in it can be labelled with its card or as background.
"""

import io
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from recognizer.cards import BACKGROUND, JOKER
from recognizer.corners import Candidates

DECK_PACKAGE = "@younestouati/playing-cards-standard-deck@3.0.0"
RENDER_WIDTH = 450
SUIT_LETTERS = {"s": "S", "h": "H", "d": "D", "c": "C"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
# Debian's kdegames-card-data-kf5 (GPL-2+ and LGPL-2+): one SVG a deck, one element a card. Their
# indices are drawn in other faces than the npm deck's (thin serif digits among them), further in
# from the edge and behind a frame line. Face cards whose element is not the whole card are skipped.
# Where the Debian package installs them; train's ``--kde-carddecks`` reads them from elsewhere.
KDE_CARDDECKS = Path("/usr/share/carddecks")
KDE_DECKS = (
    "svg-standard/standard.svgz",
    "svg-tigullio-international/tigullio-international.svgz",
    "svg-dondorf/dondorf.svgz",
)
KDE_RANKS = {"jack": "J", "queen": "Q", "king": "K", "1": "A"}
KDE_SUITS = {"club": "C", "diamond": "D", "heart": "H", "spade": "S"}


@dataclass(frozen=True)
class RenderedCard:
    card: str
    pixels: np.ndarray  # upright RGB
    rank_box: tuple[float, float, float, float] | None  # x0, y0, x1, y1 of the top-left index
    suit_box: tuple[float, float, float, float] | None


def fetch_deck(cache: Path) -> Path:
    """The deck's SVG folder, fetched once with ``npm pack`` into ``cache``."""
    cards = cache / "package" / "cards"
    if cards.is_dir():
        return cards
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(["npm", "pack", DECK_PACKAGE, "--silent"], cwd=scratch, check=True)
        tarball = next(Path(scratch).glob("*.tgz"))
        with tarfile.open(tarball) as archive:
            archive.extractall(cache, filter="data")
    return cards


def render_deck(svg_folder: Path) -> list[RenderedCard]:
    import resvg_py
    from PIL import Image

    rendered = []
    for svg in sorted(svg_folder.glob("*.svg")):
        name = svg.stem
        if name == "back":
            continue
        png = bytes(
            resvg_py.svg_to_bytes(svg_path=str(svg), width=RENDER_WIDTH, background="#ffffff")
        )
        pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
        if name == "joker":
            # This deck's joker has stars, not an index: it only teaches what is not an index.
            rendered.append(RenderedCard(JOKER, pixels, None, None))
            continue
        number, suit = int(name[:-1]), SUIT_LETTERS[name[-1]]
        card = RANK_NAMES.get(number, str(number)) + suit
        rank_box, suit_box = _index_boxes(pixels)
        rendered.append(RenderedCard(card, pixels, rank_box, suit_box))
    return rendered


def render_kde_deck(svgz: Path) -> list[RenderedCard]:
    """The cards of one KDE deck drawn whole, with their indices found."""
    from PIL import Image

    rendered = []
    with tempfile.TemporaryDirectory() as scratch:
        for suit_name, suit in KDE_SUITS.items():
            for rank_name in [*map(str, range(1, 11)), "jack", "queen", "king"]:
                png = Path(scratch) / f"{rank_name}_{suit_name}.png"
                subprocess.run(
                    [
                        "rsvg-convert",
                        f"--export-id={rank_name}_{suit_name}",
                        "--background-color",
                        "white",
                        "--width",
                        str(RENDER_WIDTH),
                        str(svgz),
                        "--output",
                        str(png),
                    ],
                    check=True,
                )
                pixels = np.asarray(Image.open(png).convert("RGB"))
                rendered.append((KDE_RANKS.get(rank_name, rank_name) + suit, pixels))
    shapes = [pixels.shape for _card, pixels in rendered]
    whole = max(set(shapes), key=shapes.count)
    deck = []
    for card, pixels in rendered:
        if pixels.shape != whole:
            continue
        rank_box, suit_box = _index_boxes(pixels, width_share=0.25, framed=True)
        if rank_box is not None:
            deck.append(RenderedCard(card, pixels, rank_box, suit_box))
    return deck


def _index_boxes(pixels: np.ndarray, width_share: float = 0.125, framed: bool = False):
    """The rank's and the suit's boxes in the top-left index, or two Nones when not found.

    ``framed``: glyphs touching the searched region's edges are the card's frame line or a pip.
    """
    height, width = pixels.shape[:2]
    region = pixels[: int(0.3 * height), : int(width_share * width)].min(axis=2) < 160
    count, _labels, stats, _centroids = cv2.connectedComponentsWithStats(region.astype(np.uint8))
    rows, columns = region.shape

    def inside(blob) -> bool:
        left, top, wide, high = blob[:4]
        return left > 0 and top > 0 and left + wide < columns and top + high < rows

    blobs = [
        stats[i]
        for i in range(1, count)
        if stats[i][cv2.CC_STAT_AREA] > 30 and (inside(stats[i]) or not framed)
    ]
    if not blobs:
        return None, None
    suit = max(blobs, key=lambda s: s[cv2.CC_STAT_TOP] + s[cv2.CC_STAT_HEIGHT])
    rank = [
        s for s in blobs if s[cv2.CC_STAT_TOP] + s[cv2.CC_STAT_HEIGHT] <= suit[cv2.CC_STAT_TOP] + 2
    ]
    if not rank:
        return None, None

    def box(parts):
        x0 = min(p[0] for p in parts)
        y0 = min(p[1] for p in parts)
        x1 = max(p[0] + p[2] for p in parts)
        y1 = max(p[1] + p[3] for p in parts)
        return (float(x0), float(y0), float(x1), float(y1))

    return box(rank), box([suit])


@dataclass(frozen=True)
class Scene:
    pixels: np.ndarray
    cards: list[RenderedCard]  # bottom to top
    to_card: list[np.ndarray]  # 3x3 homography from scene pixels to each card's pixels


def make_scene(deck: list[RenderedCard], rng: np.random.Generator) -> Scene:
    width = int(rng.integers(480, 900))
    height = int(width * rng.uniform(0.56, 1.8))
    canvas = _background(height, width, rng)
    count = int(rng.choice([1, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12]))
    chosen = [deck[i] for i in rng.choice(len(deck), size=count, replace=False)]
    layout = rng.choice(["scatter", "fan", "row"]) if count > 1 else "scatter"
    short = min(width, height)
    card_height = short * (rng.uniform(0.45, 0.95) if count == 1 else rng.uniform(0.18, 0.45))
    base_angle = rng.uniform(0, 360)
    centre = np.array([width, height]) * rng.uniform(0.35, 0.65, size=2)
    step = rng.uniform(0.12, 0.45) * card_height * 0.7
    fan_step = rng.uniform(6, 18)
    to_card = []
    for position, card in enumerate(chosen):
        card_h, card_w = card.pixels.shape[:2]
        scale = card_height / card_h * rng.uniform(0.93, 1.07)
        offset = position - (count - 1) / 2
        if layout == "scatter":
            angle = rng.uniform(0, 360)
            place = np.array([rng.uniform(0.1, 0.9) * width, rng.uniform(0.1, 0.9) * height])
        elif layout == "row":
            angle = base_angle + rng.normal(0, 3)
            direction = np.array([np.cos(np.radians(base_angle)), -np.sin(np.radians(base_angle))])
            place = centre + offset * step * direction
        else:
            angle = base_angle - offset * fan_step
            pivot_down = card_height * 0.35
            theta = np.radians(angle)
            down = np.array([np.sin(theta), np.cos(theta)])
            place = centre - pivot_down * down
        matrix = cv2.getRotationMatrix2D((card_w / 2, card_h / 2), angle, scale)
        matrix[:, 2] += place - np.array([card_w / 2, card_h / 2])
        small = cv2.resize(card.pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        shrink = np.diag([scale, scale, 1.0])
        affine = np.vstack([matrix, [0, 0, 1]]) @ np.linalg.inv(shrink)
        warped = cv2.warpAffine(small, affine[:2], (width, height), flags=cv2.INTER_LINEAR)
        mask = cv2.warpAffine(np.full(small.shape[:2], 255, np.uint8), affine[:2], (width, height))
        tint = rng.uniform(0.8, 1.05, size=3)
        card_layer = np.clip(warped * tint, 0, 255)
        alpha = (mask.astype(np.float32) / 255.0)[..., None]
        canvas = canvas * (1 - alpha) + card_layer * alpha
        to_card.append(np.linalg.inv(np.vstack([matrix, [0, 0, 1]])))
    pixels, warp = _photograph(canvas, rng)
    to_card = [card_map @ np.linalg.inv(warp) for card_map in to_card]
    return Scene(pixels, chosen, to_card)


def _background(height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    kind = rng.integers(4)
    base = rng.uniform(20, 230, size=3)
    canvas = np.ones((height, width, 3), np.float32) * base
    if kind >= 1:
        noise = rng.normal(0, 1, size=(height // 16 + 1, width // 16 + 1, 3)).astype(np.float32)
        canvas += cv2.resize(noise, (width, height), interpolation=cv2.INTER_CUBIC) * rng.uniform(
            5, 40
        )
    if kind >= 2:
        # Wood-like streaks.
        streaks = rng.normal(0, 1, size=(1, width // 3 + 1)).astype(np.float32)
        streaks = cv2.resize(streaks, (width, height), interpolation=cv2.INTER_LINEAR)
        canvas += streaks[..., None] * rng.uniform(5, 25)
    if kind == 3:
        fine = rng.normal(0, rng.uniform(2, 12), size=(height, width, 1)).astype(np.float32)
        canvas += fine
    return np.clip(canvas, 0, 255)


def _photograph(canvas: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Perspective, light, blur, noise, stretch to a square and JPEG, as in the real photos."""
    height, width = canvas.shape[:2]
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    jitter = rng.uniform(-0.06, 0.06, size=(4, 2)) * np.array([width, height])
    target_size = int(rng.choice([640, 640, 640, rng.integers(500, 1100)]))
    square = rng.random() < 0.8
    out_w = target_size if square else int(width * target_size / max(width, height))
    out_h = target_size if square else int(height * target_size / max(width, height))
    target = (source + jitter.astype(np.float32)) * np.float32([out_w / width, out_h / height])
    warp = cv2.getPerspectiveTransform(source, target)
    image = cv2.warpPerspective(canvas, warp, (out_w, out_h), flags=cv2.INTER_AREA)
    # Light: overall gain and a soft gradient or shadow.
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    gx, gy = rng.normal(0, 0.4, size=2)
    light = 1 + gx * (xx / out_w - 0.5) + gy * (yy / out_h - 0.5)
    image = image * light[..., None] * rng.uniform(0.6, 1.2) + rng.uniform(-20, 20)
    sigma = rng.choice([0, rng.uniform(0.3, 1.5)])
    if sigma:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    image += rng.normal(0, rng.uniform(0, 8), size=image.shape).astype(np.float32)
    image = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.2:
        gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
        image = np.repeat(gray[..., None], 3, axis=2)
    quality = int(rng.integers(35, 95))
    _ok, encoded = cv2.imencode(".jpg", image[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, quality])
    image = cv2.imdecode(encoded, cv2.IMREAD_COLOR)[..., ::-1].copy()
    return image, warp


def label_candidates(scene: Scene, candidates: Candidates) -> list[str]:
    """The card each candidate reads, or BACKGROUND, from where each card was placed."""
    labels = []
    for first, second in zip(candidates.first, candidates.second, strict=True):
        labels.append(_label_one(scene, first, second))
    return labels


def _label_one(scene: Scene, first: np.ndarray, second: np.ndarray) -> str:
    points = np.array([[first[0], first[1], 1.0], [second[0], second[1], 1.0]]).T
    for card, to_card in zip(reversed(scene.cards), reversed(scene.to_card), strict=True):
        mapped = to_card @ points
        mapped = (mapped[:2] / mapped[2]).T
        card_h, card_w = card.pixels.shape[:2]
        inside = (mapped >= 0).all(axis=1) & (mapped[:, 0] < card_w) & (mapped[:, 1] < card_h)
        if not inside.any():
            continue
        if not inside.all() or card.rank_box is None:
            return BACKGROUND
        for corner in (mapped, np.array([card_w, card_h]) - mapped):
            if _within(corner[0], card.rank_box) and _within(corner[1], card.suit_box):
                return card.card
        return BACKGROUND
    return BACKGROUND


def _within(point: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = box
    margin = 0.2 * (y1 - y0)
    return x0 - margin <= point[0] <= x1 + margin and y0 - margin <= point[1] <= y1 + margin
