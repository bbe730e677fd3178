"""The corrections evaluate makes to the development photos' labels (label_errata.tsv)."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from recognizer.cards import CARDS
from tools.recognition.evaluate import Erratum, corrected, errata_crops, errata_read

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = Path(__file__).with_name("photos")


def test_every_erratum_names_the_card_shown_and_says_where():
    errata = errata_read()
    assert errata
    for erratum in errata:
        assert erratum.shown in CARDS
        if erratum.kind == "wrong":
            assert erratum.labelled in CARDS and erratum.labelled != erratum.shown
        else:
            assert erratum.labelled == "-"
        assert erratum.x >= 0 and erratum.y >= 0 and erratum.why, erratum


def test_a_card_labelled_as_another_counts_as_the_card_shown():
    erratum = Erratum("win_004.jpg", "wrong", "4S", "3S", 119, 499, "a 3 above a spade")

    assert corrected("win_004.jpg", {"4S", "KC"}, [erratum]) == ({"3S", "KC"}, set(), [])
    assert corrected("win_005.jpg", {"4S", "KC"}, [erratum]) == ({"4S", "KC"}, set(), [])


def test_a_card_shown_without_a_label_is_not_counted_either_way():
    erratum = Erratum("phone_061.jpg", "unlabelled", "-", "JH", 335, 37, "at the top edge")

    assert corrected("phone_061.jpg", {"10D"}, [erratum]) == ({"10D"}, {"JH"}, [])


def test_an_erratum_the_labels_already_follow_is_left_out():
    wrong = Erratum("win_004.jpg", "wrong", "4S", "3S", 119, 499, "a 3 above a spade")
    unlabelled = Erratum("win_004.jpg", "unlabelled", "-", "KC", 392, 270, "at the edge")

    assert corrected("win_004.jpg", {"3S", "KC"}, [wrong, unlabelled]) == (
        {"3S", "KC"},
        set(),
        [wrong, unlabelled],
    )


@pytest.mark.slow  # a real photo through the networks, in a fresh interpreter
def test_evaluate_counts_a_corrected_card_right_and_as_labelled_wrong(tmp_path):
    (tmp_path / "images").mkdir()
    shutil.copy(PHOTOS / "win_004.jpg", tmp_path / "images")
    labels = (PHOTOS / "regression.tsv").read_text().splitlines()
    (tmp_path / "labels.tsv").write_text(
        "\n".join([labels[0], *[line for line in labels if line.startswith("win_004.jpg")]])
    )

    def totals(*options: str) -> dict:
        run = subprocess.run(
            [sys.executable, "-m", "tools.recognition.evaluate", str(tmp_path), "--quiet"]
            + list(options),
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        return json.loads(run.stdout.splitlines()[-1])

    saved = str(tmp_path / "readings.json")
    corrected_run = totals("--readings", saved)
    # The readings kept, the second run reads no photo again.
    (tmp_path / "images" / "win_004.jpg").unlink()
    as_labelled = totals("--as-labelled", "--readings", saved)
    # The photo shows the 3S where its labels say 4S; its KC is missed either way.
    assert corrected_run["errata"] == 1 and as_labelled["errata"] == 0
    assert corrected_run["standard"]["wrong"] == 0
    assert as_labelled["standard"]["wrong"] == 1
    right = corrected_run["standard"]["true_positives"]
    assert right == as_labelled["standard"]["true_positives"] + 1


def test_errata_crops_writes_each_place_enlarged(tmp_path):
    (tmp_path / "images").mkdir()
    shutil.copy(PHOTOS / "win_004.jpg", tmp_path / "images")
    erratum = next(erratum for erratum in errata_read() if erratum.image == "win_004.jpg")

    errata_crops(tmp_path, [erratum], tmp_path / "crops", reach=30)

    with Image.open(tmp_path / "crops" / "win_004.jpg-3S.png") as crop:
        assert crop.size == (240, 240)
        # The 3S's corner: dark print on a light card, not the photo's edge.
        assert min(crop.convert("L").getextrema()) < 100 < max(crop.convert("L").getextrema())
