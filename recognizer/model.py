"""The corner-index classifiers.

``CornerModel``, a small multilayer perceptron over gradient histograms stored as plain numpy
arrays, is fast enough to look at every candidate and screens out what is plainly not an index.
``PatchNetwork``, a small convolutional network (ONNX, run by ONNX Runtime), reads the
candidates that pass: it tells clubs from spades and small blurred ranks far better. Two are
committed, trained alike but for the jokers, which the first learned only when both were
fine-tuned on the same patches: the reader averages them.
"""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import onnxruntime

from .cards import CLASSES
from .corners import NETWORK_HEIGHT, NETWORK_WIDTH

MODEL_PATH = Path(__file__).with_name("corner_model.npz")
NETWORK_PATH = Path(__file__).with_name("corner_cnn.onnx")
# The same network trained with the joker crops from the start (``train --jokers``).
JOKER_NETWORK_PATH = Path(__file__).with_name("corner_cnn_jokers.onnx")


@dataclass(frozen=True)
class CornerModel:
    classes: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(N, classes) softmax probabilities."""
        activation = (features - self.mean) / self.scale
        for layer, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            activation = activation @ weight + bias
            if layer < len(self.weights) - 1:
                np.maximum(activation, 0, out=activation)
        activation -= activation.max(axis=1, keepdims=True)
        np.exp(activation, out=activation)
        activation /= activation.sum(axis=1, keepdims=True)
        return activation

    def save(self, path: Path) -> None:
        arrays = {f"weight{i}": w.astype(np.float32) for i, w in enumerate(self.weights)}
        arrays |= {f"bias{i}": b.astype(np.float32) for i, b in enumerate(self.biases)}
        np.savez_compressed(
            path,
            classes=np.array(self.classes),
            mean=self.mean.astype(np.float32),
            scale=self.scale.astype(np.float32),
            **arrays,
        )


def load_model(path: Path) -> CornerModel:
    with np.load(path) as stored:
        layers = sum(1 for name in stored.files if name.startswith("weight"))
        return CornerModel(
            classes=tuple(str(name) for name in stored["classes"]),
            mean=stored["mean"],
            scale=stored["scale"],
            weights=tuple(stored[f"weight{i}"] for i in range(layers)),
            biases=tuple(stored[f"bias{i}"] for i in range(layers)),
        )


@cache
def default_model() -> CornerModel:
    """The committed model, loaded once per process."""
    return load_model(MODEL_PATH)


def normalize_patches(patches: np.ndarray) -> np.ndarray:
    """(N, 3, H, W) ``float32`` network input: each patch less its mean, over its spread.

    Training (tools/recognition/train_cnn.py) applies the same formula.
    """
    pixels = patches.astype(np.float32).transpose(0, 3, 1, 2)
    flat = pixels.reshape(len(pixels), -1)
    mean = flat.mean(axis=1)[:, None, None, None]
    spread = flat.std(axis=1, ddof=1)[:, None, None, None] + 8.0
    return np.ascontiguousarray((pixels - mean) / spread)


class PatchNetwork:
    """The convolutional classifier of upright (H, W, 3) ``uint8`` patches, classes ``CLASSES``.

    ``size`` is the (width, height) of the patches it was trained on.
    """

    # Patches per run: bounds the memory the convolutions' outputs take.
    BATCH = 128

    def __init__(self, path: Path, size: tuple[int, int] = (NETWORK_WIDTH, NETWORK_HEIGHT)) -> None:
        self.classes = CLASSES
        self.size = size
        options = onnxruntime.SessionOptions()
        # One thread per photo, as on a busy web worker; a session may be run from many threads.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        # Without an arena or memory patterns, memory goes back after each photo instead of staying
        # reserved for the largest batch: peak 374 MB, not 414 MB, over ten 12-megapixel photos.
        options.enable_cpu_mem_arena = False
        options.enable_mem_pattern = False
        self._session = onnxruntime.InferenceSession(
            str(path), options, providers=["CPUExecutionProvider"]
        )

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """(N, classes) softmax probabilities."""
        if len(patches) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        logits = [
            self._session.run(
                None, {"patches": normalize_patches(patches[start : start + self.BATCH])}
            )[0]
            for start in range(0, len(patches), self.BATCH)
        ]
        activation = np.concatenate(logits).astype(np.float32)
        activation -= activation.max(axis=1, keepdims=True)
        np.exp(activation, out=activation)
        activation /= activation.sum(axis=1, keepdims=True)
        return activation


@cache
def default_network() -> PatchNetwork:
    """The committed convolutional network, loaded once per process, with the first photo read.
    Trained without the joker, it learned it when fine-tuned (see the module's docstring)."""
    return PatchNetwork(NETWORK_PATH)


@cache
def default_joker_network() -> PatchNetwork:
    """The network trained with the joker crops from the start, loaded once per process, with
    the first photo read."""
    return PatchNetwork(JOKER_NETWORK_PATH)
