"""Scenes, folds and the thresholds evaluate --cross-validate chooses on some scenes for others."""

import numpy as np

from recognizer.detections import Detection
from recognizer.reader import CardReading, Thresholds, counted
from tools.recognition.evaluate import (
    JOKER_LEAST,
    Photo,
    choose_thresholds,
    cross_validated,
    measured,
    summary,
)
from tools.recognition.scenes import NEAR_DUPLICATE, folds_of, scenes_of

RANDOM = np.random.default_rng(7)


def hashes(names):
    return {name: RANDOM.random(256) < 0.5 for name in names}


def test_photos_the_labels_call_one_scene_are_one():
    cards = {"win_000.jpg": {"2S"}, "win_001.jpg": {"3S"}, "win_002.jpg": {"4S"}}
    labelled = {"win_000.jpg": "A", "win_001.jpg": "B", "win_002.jpg": "A"}

    scenes = scenes_of(cards, labelled, hashes(cards))

    assert scenes == {
        "win_000.jpg": "win_000.jpg",
        "win_001.jpg": "win_001.jpg",
        "win_002.jpg": "win_000.jpg",
    }


def test_the_same_cards_shot_again_in_one_group_are_one_scene():
    cards = {
        "phone_092.jpg": {"3S"},
        "phone_093.jpg": {"3S"},
        "win_000.jpg": {"3S"},  # another group: another table
        "phone_094.jpg": {"3S", "4S"},
    }

    scenes = scenes_of(cards, {}, hashes(cards))

    assert scenes["phone_093.jpg"] == scenes["phone_092.jpg"] == "phone_092.jpg"
    assert len({scenes["phone_092.jpg"], scenes["win_000.jpg"], scenes["phone_094.jpg"]}) == 3


def test_near_duplicate_copies_are_one_scene_and_the_joins_carry_over():
    cards = {"win_000.jpg": {"2S"}, "win_001.jpg": {"3S"}, "win_002.jpg": {"4S"}}
    near = hashes(cards)
    near["win_002.jpg"] = near["win_000.jpg"].copy()
    near["win_002.jpg"][:NEAR_DUPLICATE] ^= True
    labelled = {"win_001.jpg": "X", "win_002.jpg": "X"}

    assert set(scenes_of(cards, labelled, near).values()) == {"win_000.jpg"}
    near["win_002.jpg"][NEAR_DUPLICATE] ^= True  # one bit further: apart
    assert len(set(scenes_of(cards, {}, near).values())) == 3


def test_folds_keep_scenes_whole_and_spread_every_group():
    scenes = {f"win_{n:03}.jpg": f"win_{n // 2 * 2:03}.jpg" for n in range(20)}
    scenes |= {f"phone_{n:03}.jpg": f"phone_{n:03}.jpg" for n in range(11)}

    folds = folds_of(scenes, 5)

    for name, scene in scenes.items():
        assert folds[name] == folds[scene]
    for group, total in (("win", 20), ("phone", 11)):
        sizes = [sum(folds[n] == fold for n in scenes if n.startswith(group)) for fold in range(5)]
        assert sum(sizes) == total and max(sizes) - min(sizes) <= 2, sizes
    assert folds_of(scenes, 5) == folds


def reading(card, confidence, size=20.0, light=False, corners=2):
    detection = Detection(card, confidence, (0, 0, 10, 10))
    return CardReading(detection, confidence, size, corners, light)


def test_thresholds_are_chosen_for_precision_first():
    # Right cards read at 0.90 and up, a wrong one at 0.88: the threshold passes over it.
    photos = [Photo(f"win_{n:03}.jpg", frozenset({"2S", "3S"}), frozenset()) for n in range(10)]
    readings = {photo.name: [reading("2S", 0.97), reading("3S", 0.90)] for photo in photos}
    readings["win_000.jpg"].append(reading("4S", 0.88))

    chosen = choose_thresholds(photos, readings)

    assert 0.88 < chosen.min_confidence <= 0.90
    counts = measured(photos, readings, chosen)
    assert summary(counts, ["win"])["precision"] == 1.0
    assert summary(counts, ["win"])["recall"] == 1.0


def test_a_joker_needs_more_than_the_strongest_false_one():
    photos = [Photo(f"phone_{n:03}.jpg", frozenset({"JK"}), frozenset()) for n in range(3)]
    photos.append(Photo("phone_003.jpg", frozenset({"2S"}), frozenset()))
    readings = {photo.name: [reading("JK", 0.99)] for photo in photos[:3]}
    readings["phone_003.jpg"] = [reading("2S", 0.99), reading("JK", 0.96)]

    chosen = choose_thresholds(photos, readings)

    assert 0.96 < chosen.joker_confidence <= 0.99
    assert measured(photos, readings, chosen)["phone"][6] == 0  # no false joker
    assert measured(photos, readings, chosen)["phone"][4] == 3  # every joker read


def test_a_joker_is_never_chosen_below_the_floor():
    photos = [Photo(f"phone_{n:03}.jpg", frozenset({"2S"}), frozenset()) for n in range(3)]
    readings = {photo.name: [reading("2S", 0.9), reading("JK", 0.6)] for photo in photos}

    assert choose_thresholds(photos, readings).joker_confidence == JOKER_LEAST


def test_a_joker_read_in_one_letter_pair_is_only_a_perhaps():
    one_pair = [reading("JK", 0.999, corners=1)]

    assert counted(one_pair, Thresholds()).cards == []
    assert [d.card for d in counted(one_pair, Thresholds()).unread] == ["JK"]
    assert [d.card for d in counted([reading("JK", 0.999)], Thresholds()).cards] == ["JK"]


def test_light_print_gets_its_own_threshold():
    photos = [Photo(f"blackdeck_{n:03}.jpg", frozenset({"2S"}), frozenset()) for n in range(5)]
    photos.append(Photo("win_000.jpg", frozenset({"3S"}), frozenset()))
    readings = {photo.name: [reading("2S", 0.97, light=True)] for photo in photos[:5]}
    readings["blackdeck_000.jpg"].append(reading("5S", 0.95, light=True))
    readings["win_000.jpg"] = [reading("3S", 0.9)]

    chosen = choose_thresholds(photos, readings)

    # Light print is read at 0.96 and up (the wrong 5S is not); dark print still at 0.9.
    assert chosen.min_confidence == 0.9
    assert 0.95 < chosen.light_confidence <= 0.97


def test_each_fold_is_measured_with_thresholds_chosen_on_the_others():
    # Nine scenes of two cards, one read at 0.95 and one at 0.88; in one scene a wrong card is
    # read at 0.89 as well.
    photos = [Photo(f"win_{n:03}.jpg", frozenset({"2S", "3S"}), frozenset()) for n in range(9)]
    readings = {photo.name: [reading("2S", 0.95), reading("3S", 0.88)] for photo in photos}
    readings["win_000.jpg"].append(reading("KH", 0.89))
    scenes = {photo.name: photo.name for photo in photos}

    held_out = cross_validated(photos, readings, scenes, 3)

    # Chosen on every photo, the threshold passes over the wrong card (and every 3S)...
    everywhere = choose_thresholds(photos, readings)
    assert 0.89 < everywhere.min_confidence <= 0.95
    assert measured(photos, readings, everywhere)["win"][1] == 0
    # ...but the fold holding it was read with a threshold chosen where no card was wrong.
    assert held_out["win"]["wrong"] == 1
    assert held_out["win"]["true_positives"] == 3 * 2 + 6
