"""Scenes and folds for measuring the recognizer honestly: ``evaluate --cross-validate K``.

Photos of one scene must never be split between the photos a threshold is chosen on and the
photos it is measured on: a threshold chosen on one shot of a table would be measured on its
twin. Two photos are one scene when any of these holds (and so on, transitively):

- ``labels.json`` gives them the same ``scene`` (the shared photos name the first of a run of
  successive shots of the same cards);
- they are of one group (file-name prefix) and show the same set of cards: the same card shot
  again on the same table minutes later (phone_092 and phone_093, both the 3S, 17 s apart) is as
  good as the same scene;
- their difference hashes (16x16, grey) differ in at most ``NEAR_DUPLICATE`` of 256 bits: the
  source dataset keeps several augmented copies of a photo (brightness, blur, noise), which look
  alike to such a hash. In the shared photos no two scenes come this close (the nearest differ
  in 34 bits, the two shots of one labelled scene in 40 to 128).

Scenes are dealt into ``k`` folds group by group, largest first, each to the fold with the fewest
photos of that group so far (ties to the lowest fold), so every fold holds each group's share.
"""

import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from PIL import Image

NEAR_DUPLICATE = 16
HASH_SIDE = 16


def group_of(name: str) -> str:
    return name.split("_")[0]


def difference_hash(path: Path) -> np.ndarray:
    """(256,) bool: whether each pixel of a 17x16 grey thumbnail is brighter than its left one."""
    with Image.open(path) as image:
        grey = image.convert("L").resize((HASH_SIDE + 1, HASH_SIDE), Image.Resampling.BILINEAR)
    pixels = np.asarray(grey, dtype=np.int16)
    return (pixels[:, 1:] > pixels[:, :-1]).ravel()


def scenes_of(
    cards: dict[str, set[str]],
    labelled_scene: dict[str, str],
    hashes: dict[str, np.ndarray],
) -> dict[str, str]:
    """Each photo's scene, named by its first photo in name order (see the module's rules)."""
    names = sorted(cards)
    parent = {name: name for name in names}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    def join(one: str, other: str) -> None:
        first, second = sorted((root(one), root(other)))
        parent[second] = first

    first_with = {}
    for name in names:
        for key in (
            ("scene", labelled_scene.get(name)),
            ("cards", group_of(name), " ".join(sorted(cards[name]))),
        ):
            if key[-1] is None:
                continue
            if key in first_with:
                join(first_with[key], name)
            else:
                first_with[key] = name
    for position, name in enumerate(names):
        if name not in hashes:
            continue
        for other in names[position + 1 :]:
            if other in hashes and (hashes[name] != hashes[other]).sum() <= NEAR_DUPLICATE:
                join(name, other)
    return {name: root(name) for name in names}


def folds_of(scenes: dict[str, str], k: int) -> dict[str, int]:
    """Each photo's fold, 0 to k-1: whole scenes, each group spread evenly over the folds."""
    members = defaultdict(list)
    for name, scene in scenes.items():
        members[scene].append(name)
    by_group = defaultdict(list)
    for scene in members:
        by_group[group_of(scene)].append(scene)
    fold = {}
    for group in sorted(by_group):
        filled = [0] * k
        for scene in sorted(by_group[group], key=lambda scene: (-len(members[scene]), scene)):
            chosen = min(range(k), key=lambda index: (filled[index], index))
            filled[chosen] += len(members[scene])
            for name in members[scene]:
                fold[name] = chosen
    return fold


def scenes_in_folder(folder: Path, cards: dict[str, set[str]]) -> dict[str, str]:
    """The scenes of a folder like the shared ``cardphotos``: ``labels.json`` is read if there."""
    labelled_scene = {}
    labels = folder / "labels.json"
    if labels.exists():
        labelled_scene = {
            name: entry["scene"]
            for name, entry in json.loads(labels.read_text()).items()
            if entry.get("scene")
        }
    hashes = {name: difference_hash(folder / "images" / name) for name in cards}
    return scenes_of(cards, labelled_scene, hashes)
