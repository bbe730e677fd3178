"""Measure the recognizer: ``python -m tools.recognition.evaluate DIR``.

DIR holds an ``images/`` folder and a ``labels.tsv`` (``image<TAB>cards``), like the project's
shared ``cardphotos``. As those photos show one deck each, the SET of distinct cards per photo is
compared. Prints one line per photo, precision, recall and F1 over cards, joker recall, the same
per group (file-name prefix) and as a Markdown table, seconds per photo, and last a JSON line with
the totals. Also counted: cards read more than once (``read_twice``); in photos of one deck each
is an extra card the player has to delete.
``--rotate`` and ``--scale`` re-encode each photo turned and resized first, to check orientation
and size handling.

The shared photos' labels are corrected where a photo plainly shows otherwise
(``label_errata.tsv``, each row saying what the photo shows and where, ``x`` and ``y`` in pixels
of the photo as stored): a card labelled as another is counted as the card shown, and a card the
photo shows without a label is not counted either way. ``--as-labelled`` counts against the
labels as they are. An erratum whose photo's labels already say so (or no longer name the card)
is reported and left out. ``--errata-crops OUT`` writes each erratum's place in its photo,
enlarged, to OUT (``win_004.jpg-3S.png``) to be looked at, and measures nothing.
"""

import argparse
import csv
import io
import json
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from recognizer.cards import JOKER
from recognizer.reader import MIN_CONFIDENCE, read_cards

# The black-and-gold novelty deck is reported on its own, outside the standard-deck totals.
NOVELTY_GROUPS = {"blackdeck"}
ERRATA = Path(__file__).with_name("label_errata.tsv")


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


def transformed(path: Path, rotate: int, scale: int | None) -> bytes | Path:
    if not rotate and not scale:
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
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=92)
        return buffer.getvalue()


def scores(true_positives: int, false_positives: int, false_negatives: int) -> dict:
    precision = true_positives / max(1, true_positives + false_positives)
    recall = true_positives / max(1, true_positives + false_negatives)
    f1 = 2 * precision * recall / max(1e-9, precision + recall)
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}


def table(rows: dict[str, dict]) -> str:
    """A Markdown table of each group's figures, as the recognition README shows them."""
    lines = [
        "| group | precision | recall | F1 | cards | wrong | read twice | jokers |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, row in rows.items():
        jokers = "-" if row["joker_recall"] is None else f"{row['joker_recall']:.2f}"
        lines.append(
            f"| {name} | {row['precision']:.3f} | {row['recall']:.3f} | {row['f1']:.3f}"
            f" | {row['cards']} | {row['wrong']} | {row['read_twice']} | {jokers} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--rotate", type=int, default=0, help="turn photos by this many degrees")
    parser.add_argument("--scale", type=int, default=None, help="resize so the long side is this")
    parser.add_argument("--min-confidence", type=float, default=MIN_CONFIDENCE)
    parser.add_argument("--quiet", action="store_true", help="no per-photo lines")
    parser.add_argument("--as-labelled", action="store_true", help=f"count without {ERRATA.name}")
    parser.add_argument(
        "--errata-crops", type=Path, metavar="OUT", help="write each erratum's place and stop"
    )
    arguments = parser.parse_args()
    if arguments.errata_crops:
        errata_crops(arguments.folder, errata_read(), arguments.errata_crops)
        return
    errata = [] if arguments.as_labelled else errata_read()
    applied = 0

    lines = (arguments.folder / "labels.tsv").read_text().splitlines()[1:]
    # group -> true positives, false positives, misses, extra readings of a card
    counts = defaultdict(lambda: [0, 0, 0, 0])
    jokers = defaultdict(lambda: [0, 0])  # group -> jokers found, jokers shown
    seconds = 0.0
    for line in lines:
        name, _tab, cards = line.partition("\t")
        expected, uncounted, stale = corrected(name, set(cards.split()), errata)
        applied += sum(erratum.image == name for erratum in errata) - len(stale)
        for erratum in stale:
            print(f"{name}: not corrected, the labels already say so: {erratum.why}")
        source = transformed(arguments.folder / "images" / name, arguments.rotate, arguments.scale)
        started = time.perf_counter()
        detections = read_cards(source, min_confidence=arguments.min_confidence)
        seconds += time.perf_counter() - started
        readings = [d.card for d in detections if d.card not in uncounted]
        found = set(readings)
        group = name.split("_")[0]
        tally = counts[group]
        tally[0] += len(found & expected)
        tally[1] += len(found - expected)
        tally[2] += len(expected - found)
        tally[3] += len(readings) - len(found)
        if JOKER in expected:
            jokers[group][1] += 1
            jokers[group][0] += JOKER in found
        if not arguments.quiet:
            wrong = " ".join(sorted(found - expected)) or "-"
            missed = " ".join(sorted(expected - found)) or "-"
            twice = " ".join(sorted({card for card in readings if readings.count(card) > 1}))
            print(
                f"{name}\tfound {len(found & expected)}/{len(expected)}"
                f"\twrong {wrong}\tmissed {missed}\tread twice {twice or '-'}"
            )

    def summary(groups) -> dict:
        tally = [sum(counts[g][i] for g in groups) for i in range(4)]
        joker = [sum(jokers[g][i] for g in groups) for i in range(2)]
        result = scores(*tally[:3])
        result |= {"cards": tally[0] + tally[2], "true_positives": tally[0], "wrong": tally[1]}
        result["read_twice"] = tally[3]
        result["joker_recall"] = round(joker[0] / joker[1], 4) if joker[1] else None
        return result

    print()
    for group in sorted(counts):
        print(f"group {group}: {json.dumps(summary([group]))}")
    standard = [g for g in counts if g not in NOVELTY_GROUPS]
    novelty = [g for g in counts if g in NOVELTY_GROUPS]
    print()
    by_group = {group: summary([group]) for group in sorted(counts)}
    print(table(by_group | {"standard decks": summary(standard)}))
    print()
    totals = {
        "standard": summary(standard),
        "novelty": summary(novelty) if novelty else None,
        "photos": len(lines),
        "seconds_per_photo": round(seconds / max(1, len(lines)), 4),
        "rotate": arguments.rotate,
        "scale": arguments.scale,
        "errata": applied,
    }
    print(f"standard deck: {json.dumps(totals['standard'])}")
    print(f"novelty deck: {json.dumps(totals['novelty'])}")
    print(f"seconds per photo: {totals['seconds_per_photo']}")
    print(
        f"labels corrected by {applied} errata ({ERRATA.name})"
        if not arguments.as_labelled
        else "labels as they are (--as-labelled)"
    )
    print(json.dumps(totals))


if __name__ == "__main__":
    main()
