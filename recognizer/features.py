"""Turning upright index patches into the feature vectors the classifier reads."""

import numpy as np

from .corners import PATCH_HEIGHT, PATCH_WIDTH

CELL = 4
BINS = 9


def patch_features(patches: np.ndarray) -> np.ndarray:
    """(N, F) ``float32`` features: gradient histograms, coarse shading and redness per patch."""
    count = len(patches)
    rgb = patches.astype(np.float32)
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    # Element-wise over the channels: numpy reductions over a last axis of 3 are slow.
    darkest = np.minimum(np.minimum(red, green), blue)
    brightest = np.maximum(np.maximum(red, green), blue)
    flat = darkest.reshape(count, -1)
    mean = flat.mean(axis=1)[:, None, None]
    spread = flat.std(axis=1)[:, None, None] + 8.0
    shade = (darkest - mean) / spread

    gradient_y, gradient_x = np.gradient(shade, axis=(1, 2))
    magnitude = np.hypot(gradient_x, gradient_y)
    angle = np.mod(np.arctan2(gradient_y, gradient_x), np.pi)
    bin_index = np.minimum((angle / np.pi * BINS).astype(np.int32), BINS - 1)
    cells_y, cells_x = PATCH_HEIGHT // CELL, PATCH_WIDTH // CELL
    cell_of_pixel = (np.arange(PATCH_HEIGHT)[:, None] // CELL) * cells_x + (
        np.arange(PATCH_WIDTH)[None, :] // CELL
    )
    slot = (cell_of_pixel[None] * BINS + bin_index) + (
        np.arange(count)[:, None, None] * cells_y * cells_x * BINS
    )
    histograms = np.bincount(
        slot.ravel(), weights=magnitude.ravel(), minlength=count * cells_y * cells_x * BINS
    ).reshape(count, cells_y * cells_x * BINS)
    histograms = np.sqrt(histograms)
    histograms /= np.linalg.norm(histograms, axis=1, keepdims=True) + 1e-6

    coarse = shade.reshape(count, PATCH_HEIGHT // 2, 2, PATCH_WIDTH // 2, 2).mean(axis=(2, 4))

    # Red print: red well above green and blue. Scaled by the patch's contrast so lighting and
    # white balance matter less; zero in black-and-white photos.
    redness = (
        np.clip(rgb[..., 0] - np.maximum(rgb[..., 1], rgb[..., 2]), 0, None) / spread[..., 0:1]
    )
    redness = redness.reshape(count, PATCH_HEIGHT // CELL, CELL, PATCH_WIDTH // CELL, CELL).mean(
        axis=(2, 4)
    )
    saturation = (brightest - darkest).reshape(count, -1).mean(axis=1) / 64.0
    return np.concatenate(
        [
            histograms,
            coarse.reshape(count, -1) * 0.3,
            redness.reshape(count, -1) * 0.3,
            saturation[:, None],
        ],
        axis=1,
    ).astype(np.float32)
