"""The committed convolutional corner readers: small, loaded once, and well-formed output."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from recognizer.cards import CLASSES
from recognizer.corners import NETWORK_HEIGHT, NETWORK_WIDTH
from recognizer.model import (
    JOKER_NETWORK_PATH,
    NETWORK_PATH,
    default_joker_network,
    default_network,
    normalize_patches,
)

# slow: the networks loaded.
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("path", [NETWORK_PATH, JOKER_NETWORK_PATH])
def test_network_files_are_small(path):
    assert path.stat().st_size < 5_000_000


def test_networks_are_loaded_once():
    assert default_network() is default_network()
    assert default_joker_network() is default_joker_network()
    assert default_network() is not default_joker_network()


@pytest.mark.parametrize("network", [default_network, default_joker_network])
def test_probabilities_cover_every_class_and_sum_to_one(network):
    rng = np.random.default_rng(0)
    patches = rng.integers(0, 256, (700, NETWORK_HEIGHT, NETWORK_WIDTH, 3), dtype=np.uint8)

    probabilities = network().probabilities(patches)

    assert probabilities.shape == (700, len(CLASSES))
    assert np.allclose(probabilities.sum(axis=1), 1, atol=1e-4)


def test_no_patches_give_no_probabilities():
    empty = np.zeros((0, NETWORK_HEIGHT, NETWORK_WIDTH, 3), np.uint8)

    assert default_network().probabilities(empty).shape == (0, len(CLASSES))


def test_patches_are_normalized_for_lighting():
    rng = np.random.default_rng(1)
    patch = rng.integers(60, 200, (1, NETWORK_HEIGHT, NETWORK_WIDTH, 3), dtype=np.uint8)
    brighter = (patch.astype(np.int32) + 40).astype(np.uint8)

    normalized = normalize_patches(patch)

    assert normalized.shape == (1, 3, NETWORK_HEIGHT, NETWORK_WIDTH)
    assert abs(float(normalized.mean())) < 1e-4
    assert np.allclose(normalized, normalize_patches(brighter), atol=1e-4)


def test_one_network_reads_for_many_threads_at_once():
    # Web workers may read two photos at once with the one network the process loaded.
    rng = np.random.default_rng(2)
    batches = [
        rng.integers(0, 256, (300, NETWORK_HEIGHT, NETWORK_WIDTH, 3), dtype=np.uint8)
        for _ in range(4)
    ]
    network = default_network()
    alone = [network.probabilities(batch) for batch in batches]

    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(network.probabilities, batches))

    for one, other in zip(alone, together, strict=True):
        assert np.allclose(one, other, atol=1e-6)
