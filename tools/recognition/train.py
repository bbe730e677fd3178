"""Train the corner-index classifier: ``python -m tools.recognition.train --crops DIR``.

Deterministic (fixed seeds). Trains from synthetic scenes of rendered SVG decks and the real
corner crops of DIR (the project's shared ``cardcrops``) marked ``subset=train`` (crops cut from
the development photos are left out, since those photos measure the recognizer). Writes
``corner_model.npz``.
"""

import argparse
import csv
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from recognizer.cards import BACKGROUND, CLASSES, JOKER
from recognizer.corners import (
    NETWORK_HEIGHT,
    NETWORK_WIDTH,
    Candidates,
    extract_patches,
    find_candidates,
)
from recognizer.features import patch_features
from recognizer.images import load_image
from recognizer.model import MODEL_PATH, NETWORK_PATH, CornerModel, PatchNetwork

from .synth import (
    KDE_CARDDECKS,
    KDE_DECKS,
    fetch_deck,
    label_candidates,
    make_scene,
    render_deck,
    render_kde_deck,
)

SEED = 20240627
KDE_SEED = 20261201
NEGATIVES_PER_SCENE = 80


NETWORK_SIZE = (NETWORK_WIDTH, NETWORK_HEIGHT)


def both_patches(pixels: np.ndarray, candidates: Candidates) -> tuple[np.ndarray, np.ndarray]:
    """Each candidate as the perceptron screens it and as the network reads it."""
    return extract_patches(pixels, candidates), extract_patches(pixels, candidates, NETWORK_SIZE)


def scene_samples(deck, seed: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    scene = make_scene(deck, rng)
    candidates = find_candidates(scene.pixels)
    labels = np.array(label_candidates(scene, candidates))
    positive = np.flatnonzero(labels != BACKGROUND)
    negative = np.flatnonzero(labels == BACKGROUND)
    negative = rng.choice(negative, size=min(len(negative), NEGATIVES_PER_SCENE), replace=False)
    keep = np.concatenate([positive, negative])
    subset = candidates[keep]
    return *both_patches(scene.pixels, subset), list(labels[keep])


def _scene_batch(arguments) -> tuple[np.ndarray, np.ndarray, list[str]]:
    deck, seeds = arguments
    screen, network, labels = [], [], []
    for seed in seeds:
        screen_patches, network_patches, scene_labels = scene_samples(deck, seed)
        screen.append(screen_patches)
        network.append(network_patches)
        labels += scene_labels
    return np.concatenate(screen), np.concatenate(network), labels


def synthetic_samples(
    deck, scenes: int, workers: int, first_seed: int = SEED
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    seeds = [first_seed + i for i in range(scenes)]
    batches = [(deck, seeds[i::workers]) for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_scene_batch, batches))
    return (
        np.concatenate([r[0] for r in results]),
        np.concatenate([r[1] for r in results]),
        [label for r in results for label in r[2]],
    )


def jittered(candidates: Candidates, copies: int, rng: np.random.Generator) -> Candidates:
    """Small random shifts, turns and scalings of each candidate: augmentation of real crops."""
    firsts, seconds = [], []
    for _ in range(copies):
        centre = candidates.centre
        offset = (candidates.second - candidates.first) / 2
        angle = rng.normal(0, np.radians(6), size=len(centre))
        scale = rng.uniform(0.9, 1.1, size=len(centre))
        cos, sin = np.cos(angle), np.sin(angle)
        turned = (
            np.stack(
                [cos * offset[:, 0] - sin * offset[:, 1], sin * offset[:, 0] + cos * offset[:, 1]],
                axis=1,
            )
            * scale[:, None]
        )
        shift = rng.normal(0, 0.08, size=(len(centre), 2)) * candidates.spacing[:, None]
        firsts.append(centre + shift - turned)
        seconds.append(centre + shift + turned)
    return Candidates(
        np.concatenate(firsts), np.concatenate(seconds), np.tile(candidates.light, copies)
    )


def real_crops(crops_dir: Path) -> list[tuple[np.ndarray, str]]:
    """The crops marked ``subset=train``, the black deck's too (its light print is found since
    the glyph finder looks for light print on dark cards; the models before left them out)."""
    with open(crops_dir / "provenance.csv", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["subset"] == "train"]
    return [(load_image(crops_dir / "images" / row["file"]), row["card"]) for row in rows]


def crop_candidates(crop: np.ndarray) -> tuple[np.ndarray, Candidates]:
    """The crop padded with its own border, and the candidates lying on its labelled index.

    Small blurred crops are enlarged further when their glyphs run together at the first size.
    """
    for least_height in (60.0, 120.0):
        padded, candidates = _crop_candidates(crop, least_height)
        if len(candidates):
            break
    return padded, candidates


def _crop_candidates(crop: np.ndarray, least_height: float) -> tuple[np.ndarray, Candidates]:
    height, width = crop.shape[:2]
    scale = max(1.0, least_height / height)
    if scale > 1:
        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        height, width = crop.shape[:2]
    pad = max(height, width) // 2
    padded = cv2.copyMakeBorder(crop, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    candidates = find_candidates(padded)
    # The crop is the labelled box grown by 15 % each side: the index is its inner part.
    inner_x = pad + width * 0.1, pad + width * 0.9
    inner_y = pad + height * 0.1, pad + height * 0.9
    points = np.concatenate([candidates.first, candidates.second], axis=1)
    inside = (
        (points[:, [0, 2]] >= inner_x[0]).all(axis=1)
        & (points[:, [0, 2]] <= inner_x[1]).all(axis=1)
        & (points[:, [1, 3]] >= inner_y[0]).all(axis=1)
        & (points[:, [1, 3]] <= inner_y[1]).all(axis=1)
        & (candidates.spacing >= 0.2 * max(height, width))
    )
    return padded, candidates[inside]


def real_samples(
    crops, picker: PatchNetwork, rng, jokers: bool = False
) -> tuple[np.ndarray, np.ndarray, list[str], int]:
    """Patches from the real crops: the candidate the picker finds most like the crop's label.

    The picker network only chooses which candidate inside a labelled crop is its index (rank
    above suit, not suit above rank); the committed one does, or any earlier one. A joker's
    index is the word "Joker", not a rank above a suit: with ``jokers``, every pair of its
    letters is a joker patch.
    """
    samples, labels, used = [], [], 0
    for crop, card in crops:
        padded, candidates = crop_candidates(crop)
        if len(candidates) == 0:
            continue
        if card == JOKER:
            if jokers:
                used += 1
                samples.append(both_patches(padded, jittered(candidates, 3, rng)))
                labels += [card] * (3 * len(candidates))
            continue
        probability = picker.probabilities(extract_patches(padded, candidates, picker.size))[
            :, CLASSES.index(card)
        ]
        best = int(np.argmax(probability))
        if probability[best] < 0.02:
            continue
        used += 1
        chosen = candidates[[best]]
        samples.append(both_patches(padded, chosen))
        samples.append(both_patches(padded, jittered(chosen, 40, rng)))
        labels += [card] * 41
        flipped = Candidates(chosen.second, chosen.first, chosen.light)
        samples.append(both_patches(padded, jittered(flipped, 8, rng)))
        labels += [BACKGROUND] * 8
    screen = np.concatenate([sample[0] for sample in samples])
    network = np.concatenate([sample[1] for sample in samples])
    return screen, network, labels, used


def fit(features: np.ndarray, labels: list[str], seed: int, epochs: int) -> CornerModel:
    from sklearn.neural_network import MLPClassifier

    targets = np.array([CLASSES.index(label) for label in labels])
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-3
    network = MLPClassifier(
        hidden_layer_sizes=(384,),
        alpha=3e-4,
        batch_size=256,
        learning_rate_init=1e-3,
        max_iter=epochs,
        random_state=seed,
        shuffle=True,
    )
    network.fit((features - mean) / scale, targets)
    # Classes that never occurred get no output unit from scikit-learn: restore the full set.
    weights = list(network.coefs_)
    biases = list(network.intercepts_)
    full_w = np.zeros((weights[-1].shape[0], len(CLASSES)), np.float32)
    full_b = np.full(len(CLASSES), -30.0, np.float32)
    full_w[:, network.classes_] = weights[-1]
    full_b[network.classes_] = biases[-1]
    weights[-1], biases[-1] = full_w, full_b
    return CornerModel(CLASSES, mean, scale, tuple(weights), tuple(biases))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # The crops live outside the repository, wherever the shared data was unpacked: no default.
    parser.add_argument(
        "--crops",
        type=Path,
        required=True,
        help="the real corner crops: a folder with provenance.csv and images/ (cardcrops)",
    )
    parser.add_argument(
        "--deck-cache", type=Path, default=Path.home() / ".cache" / "scorekeeper-recognition"
    )
    parser.add_argument("--scenes", type=int, default=1500)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--output", type=Path, default=MODEL_PATH)
    parser.add_argument(
        "--patches",
        type=Path,
        default=None,
        help="also save the labelled training patches here, for train_cnn",
    )
    parser.add_argument(
        "--picker",
        type=Path,
        default=NETWORK_PATH,
        help="the network that picks each real crop's index (default: the committed one)",
    )
    parser.add_argument(
        "--picker-size",
        default=f"{NETWORK_WIDTH}x{NETWORK_HEIGHT}",
        help="the patch size the picker reads, WIDTHxHEIGHT",
    )
    parser.add_argument(
        "--kde-scenes",
        type=int,
        default=0,
        help="also this many scenes of the KDE decks (Debian's kdegames-card-data-kf5)",
    )
    parser.add_argument(
        "--kde-carddecks",
        type=Path,
        default=KDE_CARDDECKS,
        help=f"where kdegames-card-data-kf5 put its decks (default: {KDE_CARDDECKS})",
    )
    parser.add_argument(
        "--jokers",
        action="store_true",
        help="also learn the joker from every letter pair of the joker crops",
    )
    arguments = parser.parse_args()

    started = time.monotonic()
    rng = np.random.default_rng(SEED)
    deck = render_deck(fetch_deck(arguments.deck_cache))
    # Scenes are the slow part and depend only on the seed, count and sizes: keep them between runs.
    cached = arguments.deck_cache / (
        f"scenes-{SEED}-{arguments.scenes}-{NETWORK_WIDTH}x{NETWORK_HEIGHT}.npz"
    )
    if cached.exists():
        with np.load(cached) as stored:
            synthetic_screen, synthetic_network = stored["screen"], stored["network"]
            synthetic_labels = list(stored["labels"])
    else:
        synthetic_screen, synthetic_network, synthetic_labels = synthetic_samples(
            deck, arguments.scenes, arguments.workers
        )
        np.savez(
            cached,
            screen=synthetic_screen,
            network=synthetic_network,
            labels=np.array(synthetic_labels),
        )
    if arguments.kde_scenes:
        kde_deck = [
            card for name in KDE_DECKS for card in render_kde_deck(arguments.kde_carddecks / name)
        ]
        kde_screen, kde_network, kde_labels = synthetic_samples(
            kde_deck, arguments.kde_scenes, arguments.workers, KDE_SEED
        )
        synthetic_screen = np.concatenate([synthetic_screen, kde_screen])
        synthetic_network = np.concatenate([synthetic_network, kde_network])
        synthetic_labels += kde_labels
        print(f"KDE decks: {len(kde_deck)} cards, {len(kde_labels)} patches", flush=True)
    synthetic_features = patch_features(synthetic_screen)
    positives = sum(label != BACKGROUND for label in synthetic_labels)
    print(f"synthetic: {len(synthetic_labels)} patches, {positives} indices", flush=True)

    crops = real_crops(arguments.crops)
    width, height = (int(side) for side in arguments.picker_size.split("x"))
    picker = PatchNetwork(arguments.picker, (width, height))
    real_screen, real_network, real_labels, used = real_samples(
        crops, picker, rng, arguments.jokers
    )
    print(f"real: {used} of {len(crops)} crops give an index candidate", flush=True)

    if arguments.patches:
        np.savez(
            arguments.patches,
            synthetic=synthetic_network,
            synthetic_labels=np.array(synthetic_labels),
            real=real_network,
            real_labels=np.array(real_labels),
            # train_cnn runs where recognizer.cards does not import (see there).
            classes=np.array(CLASSES),
            background=BACKGROUND,
            joker=JOKER,
        )
        print(f"wrote {arguments.patches}", flush=True)
    features = np.concatenate([synthetic_features, patch_features(real_screen)])
    model = fit(features, synthetic_labels + real_labels, SEED, arguments.epochs)
    model.save(arguments.output)
    print(f"wrote {arguments.output} in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
