"""Merging the two corner indices of one card, and keeping a second deck's equal card apart."""

import numpy as np
import pytest

from scorekeeper.recognition.reader import _card_confidence, _Corner, _group_corners_into_cards

UP = np.array([0.0, 1.0])  # "down" on an upright card points down the image


def corner(card, x, y, down=UP, spacing=20.0):
    outline = np.array([[x - 15, y - 23], [x + 15, y - 23], [x + 15, y + 23], [x - 15, y + 23]])
    return _Corner(card, 0.9, np.array([x, y], float), np.array(down), spacing, outline)


@pytest.mark.parametrize(
    ("corners", "cards"),
    [
        # Top-left and bottom-right index of one upright card (about 120x170 px): one card.
        ([corner("7H", 100, 100), corner("7H", 220, 270, down=-UP)], ["7H"]),
        # The same, the card turned upside down: still one card.
        ([corner("7H", 220, 270, down=-UP), corner("7H", 100, 100)], ["7H"]),
        # Two 7H side by side in a meld, both upright: two cards from two decks.
        ([corner("7H", 100, 100), corner("7H", 140, 100)], ["7H", "7H"]),
        # Opposite directions but far too close for one card: two cards.
        ([corner("7H", 100, 100), corner("7H", 120, 130, down=-UP)], ["7H", "7H"]),
        # Different cards never merge.
        ([corner("7H", 100, 100), corner("8H", 220, 270, down=-UP)], ["7H", "8H"]),
    ],
)
def test_corners_group_into_cards(corners, cards):
    groups = _group_corners_into_cards(corners)

    assert sorted(group[0].card for group in groups) == cards


def test_two_corners_read_alike_strengthen_the_card():
    one, other = corner("7H", 100, 100), corner("7H", 220, 270, down=-UP)  # confidence 0.9 each

    assert _card_confidence([one]) == pytest.approx(0.9)
    assert _card_confidence([one, other]) == pytest.approx(0.99)
