"""Light print on a dark card (a black novelty deck): found in the negative, read as a standard."""

import cv2
import numpy as np

from recognizer.corners import Candidates, dark_card_view, extract_patches, find_candidates

BLACK, GOLD, SILVER, WHITE = (20, 20, 24), (214, 170, 60), (200, 200, 205), (245, 245, 245)


def card_with_index(card_colour, print_colour):
    """A 300x300 table with one card and a rank "7" above a diamond in its corner."""
    pixels = np.full((300, 300, 3), WHITE if card_colour != WHITE else (120, 110, 100), np.uint8)
    cv2.rectangle(pixels, (40, 40), (260, 280), card_colour, -1)
    cv2.putText(pixels, "7", (60, 95), cv2.FONT_HERSHEY_SIMPLEX, 1.4, print_colour, 4)
    diamond = np.array([[73, 108], [87, 124], [73, 140], [59, 124]], np.int32)
    cv2.fillPoly(pixels, [diamond], print_colour)
    return pixels


def index_candidates(pixels):
    candidates = find_candidates(pixels)
    near = np.linalg.norm(candidates.centre - [73, 100], axis=1) < 30
    return candidates[near]


def test_the_dark_card_view_turns_a_black_card_white_and_its_print_dark():
    pixels = np.array([[BLACK, GOLD, SILVER]], np.uint8)

    red, green, blue = dark_card_view(pixels)[0].astype(int).T

    assert min(red[0], green[0], blue[0]) > 220  # the card: white
    assert red[1] > 150 and max(green[1], blue[1]) < 60  # gold print: red, as hearts and diamonds
    assert max(red[2], green[2], blue[2]) < 80  # silver print: dark, as spades and clubs


def test_light_print_on_a_dark_card_gives_light_candidates():
    candidates = index_candidates(card_with_index(BLACK, GOLD))

    assert candidates.light.any()


def test_dark_print_on_a_light_card_gives_no_light_candidates():
    candidates = index_candidates(card_with_index(WHITE, (20, 20, 20)))

    assert len(candidates) > 0
    assert not candidates.light.any()


def test_a_light_candidate_is_cut_from_the_dark_card_view():
    pixels = card_with_index(BLACK, GOLD)
    candidates = index_candidates(pixels)
    candidates = candidates[candidates.light]
    as_dark_print = Candidates(candidates.first, candidates.second)

    patches = extract_patches(pixels, candidates).astype(float)
    expected = extract_patches(dark_card_view(pixels), as_dark_print).astype(float)

    # Alike up to the pyramid level's smoothing (the view is taken of the level the patch is cut
    # from), and nothing like the photo as it is.
    assert np.abs(patches - expected).mean() < 3
    assert np.abs(extract_patches(pixels, as_dark_print) - expected).mean() > 100
