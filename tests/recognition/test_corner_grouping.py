"""Merging the two corner indices of one card, and keeping a second deck's equal card apart."""

import dataclasses

import numpy as np
import pytest

from recognizer.reader import _card_confidence, _Corner, _group_corners_into_cards

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
        # A large index, or a card flattened by a photo squashed to a square: the corners lie
        # closer in index sizes (win_001's 2H: 3.7 down, 4.9 across). Still one card.
        ([corner("2H", 100, 100), corner("2H", 198, 174, down=-UP)], ["2H"]),
        # A phone photo in perspective: the far index looks half as large. Still one card.
        (
            [corner("4D", 100, 100, spacing=26), corner("4D", 220, 270, down=-UP, spacing=14)],
            ["4D"],
        ),
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


def joker(x, y, down=UP, confidence=0.99, spacing=20.0):
    return dataclasses.replace(corner("JK", x, y, down, spacing), confidence=confidence)


def test_the_letter_pairs_of_a_jokers_two_words_are_one_card():
    # "Joker" across the top read as three letter pairs, either way round, and across the bottom.
    word = [joker(100, 100, [1, 0]), joker(120, 100, [-1, 0], 0.97), joker(140, 100, [1, 0], 0.9)]
    other_word = [joker(130, 220, [-1, 0], 0.98)]

    groups = _group_corners_into_cards(word + other_word)

    assert len(groups) == 1
    assert _card_confidence(groups[0]) == pytest.approx(0.99)  # the strongest, not combined


def test_jokers_far_apart_are_two_cards():
    groups = _group_corners_into_cards([joker(100, 100), joker(400, 100)])

    assert len(groups) == 2
