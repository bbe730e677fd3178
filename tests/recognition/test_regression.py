"""Per-group precision and recall on a fixed subset of the development photos (regression.tsv).

The floors lie a little under what the committed models and thresholds reach on these photos
(recognizer/README.md has the figures): a retrained model or a changed threshold that reads
these photos worse fails here before it is committed. The labels are the shared photos' own,
corrected as evaluate corrects them (tools/recognition/label_errata.tsv).
"""

from pathlib import Path

import pytest

from recognizer import read_cards
from tools.recognition.evaluate import corrected, errata_read

# slow: 30 real photos through the networks.
pytestmark = pytest.mark.slow

PHOTOS = Path(__file__).with_name("photos")

# group: (least precision, least recall), about one card under what the committed models and
# thresholds read: win 68 right and none wrong of 70 cards (1.0, 0.971), phone 17 of 17 (1.0,
# 1.0), blackdeck 13 right and none wrong of 18 (1.0, 0.722; light print needs LIGHT_CONFIDENCE).
FLOORS = {
    "win": (0.98, 0.95),
    "phone": (0.94, 0.94),
    "blackdeck": (0.92, 0.66),
}


def labelled_photos(group: str) -> list[tuple[str, set[str], set[str]]]:
    """Each photo of the group, the cards it shows and the cards whose readings do not count."""
    lines = (PHOTOS / "regression.tsv").read_text().splitlines()[1:]
    rows = [line.split("\t") for line in lines]
    errata = errata_read()
    return [
        (name, *corrected(name, set(cards.split()), errata)[:2])
        for name, cards in rows
        if name.startswith(f"{group}_")
    ]


@pytest.mark.parametrize("group", sorted(FLOORS))
def test_a_group_of_photos_reads_at_least_as_well_as_when_pinned(group):
    least_precision, least_recall = FLOORS[group]
    right = wrong = shown = 0
    for name, cards, uncounted in labelled_photos(group):
        # As evaluate counts: the set of cards read (these photos show one deck each).
        read = {detection.card for detection in read_cards(PHOTOS / name)} - uncounted
        right += len(read & cards)
        wrong += len(read - cards)
        shown += len(cards)

    precision, recall = right / max(1, right + wrong), right / shown
    assert precision >= least_precision and recall >= least_recall, (
        f"{group}: precision {precision:.3f}, recall {recall:.3f}"
    )
