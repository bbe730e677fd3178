"""Decoding uploaded photos into upright RGB arrays."""

import io
import os
from typing import BinaryIO

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError
from pillow_heif import register_heif_opener

from .limits import MAX_PIXELS

register_heif_opener()

# An upload as it came (a path, its bytes or a file), or one the caller decoded and turned upright
# already (a Pillow image), so that a photo is decoded once.
ImageSource = str | os.PathLike | bytes | bytearray | memoryview | BinaryIO | Image.Image


class UnreadableImage(ValueError):
    """The input is not an image we can decode (corrupt, truncated, unsupported or too large)."""


def load_image(source: ImageSource, *, max_side: int | None = None) -> np.ndarray:
    """Decode a path, bytes or binary file object into an upright RGB ``uint8`` array (H, W, 3).

    EXIF orientation is applied, so the array is the picture as a browser shows it. With
    ``max_side`` the image is shrunk (never enlarged) so that its longer side fits; JPEGs are then
    decoded at reduced size directly, which is much faster for 12-megapixel photos.
    """
    return load_image_scaled(source, max_side=max_side)[0]


def load_image_scaled(
    source: ImageSource, *, max_side: int | None = None
) -> tuple[np.ndarray, float]:
    """Like ``load_image``, also returning the factor from returned to full upright pixels.

    A Pillow image is taken as upright already (its EXIF orientation applied) and not decoded
    again; it is only shrunk to ``max_side``, in a copy.
    """
    if isinstance(source, Image.Image):
        if source.width * source.height > MAX_PIXELS:
            raise UnreadableImage(f"image too large: {source.width}x{source.height}")
        # convert() makes a copy, so shrinking it leaves the caller's image as it was.
        return _shrunk(source.convert("RGB"), max_side, 1.0)
    if isinstance(source, bytes | bytearray | memoryview):
        source = io.BytesIO(bytes(source))
    try:
        with Image.open(source) as image:
            if image.width * image.height > MAX_PIXELS:
                raise UnreadableImage(f"image too large: {image.width}x{image.height}")
            full_width = image.width
            if max_side and image.format == "JPEG":
                image.draft("RGB", (max_side, max_side))
            draft_factor = full_width / image.width
            upright = ImageOps.exif_transpose(image).convert("RGB")
    except UnreadableImage:
        raise
    except (
        UnidentifiedImageError,
        OSError,
        SyntaxError,
        ValueError,
        Image.DecompressionBombError,
    ) as error:
        raise UnreadableImage(f"cannot read image: {error}") from error
    return _shrunk(upright, max_side, draft_factor)


def _shrunk(upright: Image.Image, max_side: int | None, scale: float) -> tuple[np.ndarray, float]:
    if max_side and max(upright.size) > max_side:
        before = upright.width
        upright.thumbnail((max_side, max_side), Image.Resampling.BILINEAR)
        scale *= before / upright.width
    return np.asarray(upright), scale
