"""The corner-index classifier: a small multilayer perceptron stored as plain numpy arrays."""

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

MODEL_PATH = Path(__file__).with_name("corner_model.npz")


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
