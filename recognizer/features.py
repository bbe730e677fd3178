"""Turning upright index patches into the feature vectors the classifier reads."""

import cv2
import numpy as np

from .corners import PATCH_HEIGHT, PATCH_WIDTH

CELL = 4
BINS = 9


def patch_features(patches: np.ndarray) -> np.ndarray:
    """(N, F) ``float32`` features: gradient histograms, coarse shading and redness per patch."""
    count = len(patches)
    red, green, blue = patches[..., 0], patches[..., 1], patches[..., 2]
    # Element-wise over the channels, in bytes: numpy reductions over a last axis of 3 are slow.
    darkest = np.minimum(np.minimum(red, green), blue).astype(np.float32)
    brightest = np.maximum(np.maximum(red, green), blue).astype(np.float32)
    flat = darkest.reshape(count, -1)
    mean = flat.mean(axis=1)[:, None, None]
    spread = flat.std(axis=1)[:, None, None] + 8.0
    shade = (darkest - mean) / spread

    gradient_y, gradient_x = np.gradient(shade, axis=(1, 2))
    rows = (count * PATCH_HEIGHT, PATCH_WIDTH)
    magnitude, angle = cv2.cartToPolar(
        gradient_x.reshape(rows), gradient_y.reshape(rows), angleInDegrees=True
    )
    bin_index = (np.mod(angle, 180.0) * (BINS / 180.0)).astype(np.int32)
    np.minimum(bin_index, BINS - 1, out=bin_index)
    cells_y, cells_x = PATCH_HEIGHT // CELL, PATCH_WIDTH // CELL
    cell_of_pixel = (np.arange(PATCH_HEIGHT)[:, None] // CELL) * cells_x + (
        np.arange(PATCH_WIDTH)[None, :] // CELL
    )
    slot = bin_index.reshape(count, PATCH_HEIGHT, PATCH_WIDTH)
    slot += (cell_of_pixel * BINS).astype(np.int32)
    slot += (np.arange(count, dtype=np.int32) * (cells_y * cells_x * BINS))[:, None, None]
    histograms = np.bincount(
        slot.ravel(), weights=magnitude.ravel(), minlength=count * cells_y * cells_x * BINS
    ).reshape(count, cells_y * cells_x * BINS)
    histograms = np.sqrt(histograms)
    histograms /= np.linalg.norm(histograms, axis=1, keepdims=True) + 1e-6

    coarse = _block_means(shade, 2)

    # Red print: red well above green and blue. Scaled by the patch's contrast so lighting and
    # white balance matter less; zero in black-and-white photos.
    redness = np.clip(red.astype(np.float32) - np.maximum(green, blue), 0, None) / spread
    redness = _block_means(redness, CELL)
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


def _block_means(values: np.ndarray, block: int) -> np.ndarray:
    """(N, H / block, W / block) means of ``block`` x ``block`` squares of (N, H, W) ``values``."""
    count, height, width = values.shape
    shrunk = cv2.resize(
        values.reshape(count * height, width),
        (width // block, count * height // block),
        interpolation=cv2.INTER_AREA,
    )
    return shrunk.reshape(count, height // block, width // block)
