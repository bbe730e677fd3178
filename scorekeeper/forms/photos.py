"""Photos: any upload a phone or tablet makes, checked, turned upright and re-encoded."""

import base64
import io
from dataclasses import dataclass

from django import forms
from django.conf import settings
from PIL import Image, ImageOps, UnidentifiedImageError
from pillow_heif import register_heif_opener

register_heif_opener()


PHOTO_FORMATS = {"JPEG", "PNG", "WEBP", "HEIF"}


@dataclass(frozen=True)
class CleanPhoto:
    """An upload made safe to keep: upright, re-encoded as JPEG, with no EXIF (no location)."""

    content: bytes
    width: int
    height: int

    def data_url(self, *, max_side: int = 1280) -> str:
        """The photo as a data: URL, scaled down to show on a page without storing it."""
        with Image.open(io.BytesIO(self.content)) as image:
            image.thumbnail((max_side, max_side))
            buffer = io.BytesIO()
            image.save(buffer, format="JPEG", quality=80)
        return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def photo_clean(upload) -> CleanPhoto:
    """Check an uploaded photo and re-encode it, or refuse it in the player's words."""
    megabyte = 1024 * 1024
    if upload.size > settings.PHOTO_MAX_BYTES:
        raise forms.ValidationError(
            f"That photo is {upload.size / megabyte:.1f} MB; photos up to "
            f"{settings.PHOTO_MAX_BYTES // megabyte} MB are accepted."
        )
    try:
        with Image.open(upload) as image:
            if image.format not in PHOTO_FORMATS:
                raise forms.ValidationError(
                    "That file is not a photo we can read: use JPEG, PNG, WebP or HEIC."
                )
            if image.width * image.height > settings.PHOTO_MAX_PIXELS:
                raise forms.ValidationError(
                    f"That picture is {image.width}×{image.height} pixels, too large to read: "
                    f"photos up to {settings.PHOTO_MAX_PIXELS // 1_000_000} megapixels are fine."
                )
            image.load()
            upright = ImageOps.exif_transpose(image).convert("RGB")
    except forms.ValidationError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError):
        raise forms.ValidationError(
            "That file is not a photo we can read: use JPEG, PNG, WebP or HEIC."
        ) from None
    except (OSError, SyntaxError, ValueError):
        raise forms.ValidationError(
            "That photo is damaged or cut short; please take it again."
        ) from None
    buffer = io.BytesIO()
    upright.save(buffer, format="JPEG", quality=88)
    return CleanPhoto(buffer.getvalue(), upright.width, upright.height)


class PhotoForm(forms.Form):
    photo = forms.FileField()

    def clean_photo(self):
        return photo_clean(self.cleaned_data["photo"])
