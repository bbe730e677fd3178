"""Measure the recognizer: ``python -m tools.recognition.evaluate DIR``.

DIR holds an ``images/`` folder and a ``labels.tsv`` (``image<TAB>cards``), like the project's
shared ``cardphotos``. As those photos show one deck each, the SET of distinct cards per photo is
compared. Prints one line per photo, precision, recall and F1 over cards, joker recall, the same
per group (file-name prefix) and as a Markdown table, seconds per photo, and last a JSON line with
the totals. Also counted: cards read more than once (``read_twice``); in photos of one deck each
is an extra card the player has to delete.
``--rotate`` and ``--scale`` re-encode each photo turned and resized first, to check orientation
and size handling; ``--noise`` sets a share of its pixels to black or white (salt and pepper, as
the source dataset augments some copies of its photos), the same pixels of a photo every run.

The shared photos' labels are corrected where a photo plainly shows otherwise
(``label_errata.tsv``, each row saying what the photo shows and where, ``x`` and ``y`` in pixels
of the photo as stored): a card labelled as another is counted as the card shown, and a card the
photo shows without a label is not counted either way. ``--as-labelled`` counts against the
labels as they are. An erratum whose photo's labels already say so (or no longer name the card)
is reported and left out. ``--errata-crops OUT`` writes each erratum's place in its photo,
enlarged, to OUT (``win_004.jpg-3S.png``) to be looked at, and measures nothing.

Each photo is read once, every card however sure (``read_card_readings``), and the thresholds
(``Thresholds``) are applied after: ``--readings FILE`` keeps the readings for the next run.
``--cross-validate K`` deals the photos' scenes (scenes.py) into K folds and reads each fold with
the thresholds ``choose_thresholds`` picks on the others, and prints those figures together: the
figures of photos the thresholds were not chosen on.
"""

import argparse
import csv
import io
import json
import time
import zlib
from collections import defaultdict
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
from PIL import Image

from recognizer.cards import JOKER
from recognizer.detections import Detection
from recognizer.reader import (
    MIN_CONFIDENCE,
    CardReading,
    Thresholds,
    counted,
    read_card_readings,
)
from tools.recognition.scenes import folds_of, group_of, scenes_in_folder

# The black-and-gold novelty deck is reported on its own, outside the standard-deck totals.
NOVELTY_GROUPS = {"blackdeck"}
ERRATA = Path(__file__).with_name("label_errata.tsv")
# What --cross-validate asks of a card read, in every group, and the settings it tries.
PRECISION = 0.98
CONFIDENCES = [round(0.5 + 0.01 * step, 2) for step in range(50)]
JOKER_LEAST = 0.95
LEAST_SIZES = [0.0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]


@dataclass(frozen=True)
class Erratum:
    """What a photo shows that its labels say otherwise: ``kind`` "wrong" (the card labelled
    ``labelled`` is the card ``shown``) or "unlabelled" (``shown`` has no label)."""

    image: str
    kind: str
    labelled: str
    shown: str
    x: int
    y: int
    why: str


def errata_read(path: Path = ERRATA) -> list[Erratum]:
    with path.open(newline="") as rows:
        errata = [
            Erratum(**row | {"x": int(row["x"]), "y": int(row["y"])})
            for row in csv.DictReader(rows, delimiter="\t")
        ]
    for erratum in errata:
        if erratum.kind not in ("wrong", "unlabelled"):
            raise ValueError(f"{erratum.image}: an erratum is wrong or unlabelled: {erratum.kind}")
    return errata


def corrected(
    image: str, labelled: set[str], errata: list[Erratum]
) -> tuple[set[str], set[str], list[Erratum]]:
    """A photo's cards as its errata correct them, the cards whose readings are not counted, and
    the errata that no longer apply (the labels already say so)."""
    cards, uncounted, stale = set(labelled), set(), []
    for erratum in errata:
        if erratum.image != image:
            continue
        if erratum.kind == "wrong" and erratum.labelled in cards:
            cards = (cards - {erratum.labelled}) | {erratum.shown}
        elif erratum.kind == "unlabelled" and erratum.shown not in cards:
            uncounted.add(erratum.shown)
        else:
            stale.append(erratum)
    return cards, uncounted, stale


def errata_crops(folder: Path, errata: list[Erratum], out: Path, reach: int = 60) -> None:
    """Each erratum's place in its photo, ``reach`` pixels around it, enlarged four times."""
    out.mkdir(parents=True, exist_ok=True)
    for erratum in errata:
        with Image.open(folder / "images" / erratum.image) as image:
            box = (erratum.x - reach, erratum.y - reach, erratum.x + reach, erratum.y + reach)
            crop = image.convert("RGB").crop(box).resize((8 * reach, 8 * reach), Image.LANCZOS)
        crop.save(out / f"{erratum.image}-{erratum.shown}.png")
        print(f"{erratum.image}-{erratum.shown}.png\t{erratum.kind}: {erratum.why}")


def transformed(path: Path, rotate: int, scale: int | None, noise: float = 0.0) -> bytes | Path:
    """The photo as evaluate reads it: turned, resized, then ``noise`` of its pixels black or
    white (half of each, drawn from the photo's name, so the same pixels every run)."""
    if not rotate and not scale and not noise:
        return path
    with Image.open(path) as image:
        image = image.convert("RGB")
        if rotate:
            image = image.rotate(rotate, expand=True)
        if scale:
            factor = scale / max(image.size)
            image = image.resize(
                (round(image.width * factor), round(image.height * factor)),
                Image.Resampling.BICUBIC,
            )
        if noise:
            pixels = np.array(image)
            draw = np.random.default_rng(zlib.crc32(path.name.encode())).random(pixels.shape[:2])
            pixels[draw < noise / 2] = 0
            pixels[draw > 1 - noise / 2] = 255
            image = Image.fromarray(pixels)
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=92)
        return buffer.getvalue()


def read_folder(
    folder: Path,
    names: list[str],
    rotate: int,
    scale: int | None,
    saved: Path | None,
    noise: float = 0.0,
) -> tuple[dict[str, list[CardReading]], float]:
    """Every card each photo reads, however sure, and the seconds per photo.

    With ``saved``, the readings are written there, or read from it when it holds the same
    photos turned, scaled and speckled alike (thresholds can then be tried without reading again).
    """
    key = {"rotate": rotate, "scale": scale, "noise": noise, "photos": names}
    if saved and saved.exists():
        stored = json.loads(saved.read_text())
        if stored["key"] == key:
            return {
                name: [reading_from_json(reading) for reading in readings]
                for name, readings in stored["readings"].items()
            }, stored["seconds_per_photo"]
    readings, seconds = {}, 0.0
    for name in names:
        source = transformed(folder / "images" / name, rotate, scale, noise)
        started = time.perf_counter()
        readings[name] = read_card_readings(source)
        seconds += time.perf_counter() - started
    seconds = round(seconds / max(1, len(names)), 4)
    if saved:
        as_json = {name: [reading_to_json(r) for r in found] for name, found in readings.items()}
        saved.write_text(
            json.dumps({"key": key, "seconds_per_photo": seconds, "readings": as_json})
        )
    return readings, seconds


def reading_to_json(reading: CardReading) -> dict:
    return asdict(reading.detection) | {
        "exact": reading.confidence,
        "size": reading.size,
        "corners": reading.corners,
        "light": reading.light,
    }


def reading_from_json(row: dict) -> CardReading:
    detection = Detection(row["card"], row["confidence"], tuple(row["box"]))
    return CardReading(detection, row["exact"], row["size"], row["corners"], row["light"])


def scores(true_positives: int, false_positives: int, false_negatives: int) -> dict:
    precision = true_positives / max(1, true_positives + false_positives)
    recall = true_positives / max(1, true_positives + false_negatives)
    f1 = 2 * precision * recall / max(1e-9, precision + recall)
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}


def table(rows: dict[str, dict]) -> str:
    """A Markdown table of each group's figures, as the recognition README shows them."""
    lines = [
        "| group | precision | recall | F1 | cards | wrong | read twice | jokers | false jokers |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, row in rows.items():
        jokers = "-" if row["joker_recall"] is None else f"{row['joker_recall']:.2f}"
        lines.append(
            f"| {name} | {row['precision']:.3f} | {row['recall']:.3f} | {row['f1']:.3f}"
            f" | {row['cards']} | {row['wrong']} | {row['read_twice']} | {jokers}"
            f" | {row['false_jokers']} |"
        )
    return "\n".join(lines)


@dataclass(frozen=True)
class Photo:
    """A labelled photo: the cards it shows (errata corrected) and those whose readings don't
    count."""

    name: str
    cards: frozenset[str]
    uncounted: frozenset[str]

    @property
    def group(self) -> str:
        return group_of(self.name)


def labelled_photos(folder: Path, errata: list[Erratum]) -> tuple[list[Photo], int]:
    """The folder's photos as corrected, and how many errata applied (stale ones are said)."""
    photos, applied = [], 0
    for line in (folder / "labels.tsv").read_text().splitlines()[1:]:
        name, _tab, cards = line.partition("\t")
        expected, uncounted, stale = corrected(name, set(cards.split()), errata)
        applied += sum(erratum.image == name for erratum in errata) - len(stale)
        for erratum in stale:
            print(f"{name}: not corrected, the labels already say so: {erratum.why}")
        photos.append(Photo(name, frozenset(expected), frozenset(uncounted)))
    return photos, applied


def measured(
    photos: list[Photo],
    readings: dict[str, list[CardReading]],
    thresholds: Thresholds,
    lines: list[str] | None = None,
) -> dict[str, list[int]]:
    """Group -> right, wrong, missed, read twice, jokers found, jokers shown, false jokers; with
    ``lines``, one line per photo is added to it."""
    counts = defaultdict(lambda: [0] * 7)
    for photo in photos:
        cards = counted(readings[photo.name], thresholds).cards
        read = [d.card for d in cards if d.card not in photo.uncounted]
        found = set(read)
        tally = counts[photo.group]
        tally[0] += len(found & photo.cards)
        tally[1] += len(found - photo.cards)
        tally[2] += len(photo.cards - found)
        tally[3] += len(read) - len(found)
        tally[4] += JOKER in found & photo.cards
        tally[5] += JOKER in photo.cards
        tally[6] += JOKER in found - photo.cards
        if lines is not None:
            wrong = " ".join(sorted(found - photo.cards)) or "-"
            missed = " ".join(sorted(photo.cards - found)) or "-"
            twice = " ".join(sorted({card for card in read if read.count(card) > 1}))
            lines.append(
                f"{photo.name}\tfound {len(found & photo.cards)}/{len(photo.cards)}"
                f"\twrong {wrong}\tmissed {missed}\tread twice {twice or '-'}"
            )
    return counts


def summary(counts: dict[str, list[int]], groups: list[str]) -> dict:
    tally = [sum(counts[group][i] for group in groups if group in counts) for i in range(7)]
    result = scores(*tally[:3])
    result |= {"cards": tally[0] + tally[2], "true_positives": tally[0], "wrong": tally[1]}
    result["read_twice"] = tally[3]
    result["joker_recall"] = round(tally[4] / tally[5], 4) if tally[5] else None
    result["false_jokers"] = tally[6]
    return result


def report(counts: dict[str, list[int]]) -> dict[str, dict]:
    """Each group's figures, the standard decks' together."""
    standard = [group for group in sorted(counts) if group not in NOVELTY_GROUPS]
    return {group: summary(counts, [group]) for group in sorted(counts)} | {
        "standard decks": summary(counts, standard)
    }


def precise_enough(counts: dict[str, list[int]], groups: list[str]) -> float:
    """The least precision among ``groups`` (reading nothing counts as 0, not as precise)."""
    return min(summary(counts, [group])["precision"] for group in groups)


def choose_thresholds(photos: list[Photo], readings: dict[str, list[CardReading]]) -> Thresholds:
    """The thresholds the stated rule picks on these photos (the training folds).

    1. ``min_confidence`` and ``least_size``, jokers and light print left out: the highest F1 of
       the standard decks among the settings that read at least ``PRECISION`` in each of their
       groups; ties go to the more cautious (higher) settings. If none does, the most precise.
    2. ``light_confidence``: the highest F1 of the light-print groups (of the others if there
       are none) among the settings that keep every group at least ``PRECISION`` precise,
       cautious ties; if none, the most precise.
    3. ``joker_confidence``: the lowest, at least ``JOKER_LEAST``, that reads no false joker (a
       false one costs 50 points; the five joker photos are one scene, so a training fold may
       hold no joker at all, and the floor keeps such a fold from choosing by false ones alone).
    """
    groups = sorted({photo.group for photo in photos})
    standard = [group for group in groups if group not in NOVELTY_GROUPS]
    novelty = [group for group in groups if group in NOVELTY_GROUPS]

    def best(settings, judged, precision_groups):
        def key(thresholds):
            counts = measured(photos, readings, thresholds)
            precision = precise_enough(counts, precision_groups)
            f1 = summary(counts, judged)["f1"]
            return (precision >= PRECISION, f1 if precision >= PRECISION else precision, f1)

        # max keeps the first of equals: settings run from the most cautious.
        return max(settings, key=key)

    off = 1.01  # no reading is this sure
    chosen = best(
        [
            Thresholds(confidence, off, off, least_size)
            for confidence in reversed(CONFIDENCES)
            for least_size in reversed(LEAST_SIZES)
        ],
        standard,
        standard,
    )
    chosen = best(
        [replace(chosen, light_confidence=light) for light in reversed(CONFIDENCES)],
        novelty or standard,
        groups,
    )
    for joker in [*CONFIDENCES, off]:
        if joker < JOKER_LEAST:
            continue
        trial = replace(chosen, joker_confidence=max(joker, chosen.min_confidence))
        counts = measured(photos, readings, trial)
        if not sum(counts[group][6] for group in counts):
            return trial
    return replace(chosen, joker_confidence=off)


def cross_validated(
    photos: list[Photo], readings: dict[str, list[CardReading]], scenes: dict[str, str], k: int
) -> dict[str, dict]:
    """Each fold measured with the thresholds chosen on the others; prints them and the table."""
    fold_of = folds_of(scenes, k)
    held_out = defaultdict(lambda: [0] * 7)
    print(f"{len(set(scenes.values()))} scenes of {len(photos)} photos in {k} folds")
    for fold in range(k):
        training = [photo for photo in photos if fold_of[photo.name] != fold]
        tested = [photo for photo in photos if fold_of[photo.name] == fold]
        thresholds = choose_thresholds(training, readings)
        print(f"fold {fold}: {len(tested)} photos, chosen on the others: {thresholds}")
        for group, tally in measured(tested, readings, thresholds).items():
            held_out[group] = [a + b for a, b in zip(held_out[group], tally, strict=True)]
    figures = report(held_out)
    print()
    print("cross-validated (each fold read with thresholds chosen on the others):")
    print(table(figures))
    whole = choose_thresholds(photos, readings)
    print()
    print(f"chosen on every photo by the same rule: {whole}")
    print(table(report(measured(photos, readings, whole))))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--rotate", type=int, default=0, help="turn photos by this many degrees")
    parser.add_argument("--scale", type=int, default=None, help="resize so the long side is this")
    parser.add_argument(
        "--noise", type=float, default=0.0, help="this share of pixels black or white (0.02: 2%%)"
    )
    parser.add_argument("--min-confidence", type=float, default=MIN_CONFIDENCE)
    parser.add_argument("--quiet", action="store_true", help="no per-photo lines")
    parser.add_argument("--as-labelled", action="store_true", help=f"count without {ERRATA.name}")
    parser.add_argument(
        "--errata-crops", type=Path, metavar="OUT", help="write each erratum's place and stop"
    )
    parser.add_argument(
        "--readings", type=Path, metavar="FILE", help="keep every photo's readings in FILE"
    )
    parser.add_argument(
        "--cross-validate",
        type=int,
        metavar="K",
        help="choose the thresholds on K-1 folds of scenes, measure on the K-th (see scenes.py)",
    )
    arguments = parser.parse_args()
    if not 0 <= arguments.noise <= 1:
        parser.error("--noise is a share of the pixels, from 0 to 1")
    if arguments.errata_crops:
        errata_crops(arguments.folder, errata_read(), arguments.errata_crops)
        return
    errata = [] if arguments.as_labelled else errata_read()
    photos, applied = labelled_photos(arguments.folder, errata)
    readings, seconds = read_folder(
        arguments.folder,
        [photo.name for photo in photos],
        arguments.rotate,
        arguments.scale,
        arguments.readings,
        arguments.noise,
    )
    lines = []
    full = report(measured(photos, readings, Thresholds(arguments.min_confidence), lines))
    if not arguments.quiet:
        print("\n".join(lines))
    print()
    print(table(full))
    print()
    totals = {
        "standard": full["standard decks"],
        "novelty": next((full[group] for group in NOVELTY_GROUPS if group in full), None),
        "photos": len(photos),
        "seconds_per_photo": seconds,
        "rotate": arguments.rotate,
        "scale": arguments.scale,
        "noise": arguments.noise,
        "errata": applied,
    }
    if arguments.cross_validate:
        scenes = scenes_in_folder(
            arguments.folder, {photo.name: set(photo.cards) for photo in photos}
        )
        cross_validated(photos, readings, scenes, arguments.cross_validate)
    print(
        f"labels corrected by {applied} errata ({ERRATA.name})"
        if not arguments.as_labelled
        else "labels as they are (--as-labelled)"
    )
    print(json.dumps(totals))


if __name__ == "__main__":
    main()
