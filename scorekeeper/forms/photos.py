"""Photos: any upload a phone or tablet makes, checked from its header alone (size, kind,
pixels), so that a bad one is refused at once and a good one is queued for a worker to read."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError
from pillow_heif import register_heif_opener

from scorekeeper.uploads import NOT_A_PHOTO, PHOTO_DAMAGED, UploadedPhoto

register_heif_opener()


PHOTO_FORMATS = {"JPEG", "PNG", "WEBP", "HEIF"}


def photo_check(upload) -> UploadedPhoto:
    """Check an uploaded photo's size, kind and pixels without decoding it, or refuse it in the
    player's words."""
    megabyte = 1024 * 1024
    if upload.size > settings.PHOTO_MAX_BYTES:
        raise forms.ValidationError(
            _("That photo is %(size).1f MB; photos up to %(most)s MB are accepted.")
            % {"size": upload.size / megabyte, "most": settings.PHOTO_MAX_BYTES // megabyte}
        )
    try:
        with Image.open(upload) as image:
            if image.format not in PHOTO_FORMATS:
                raise forms.ValidationError(NOT_A_PHOTO)
            if image.width * image.height > settings.PHOTO_MAX_PIXELS:
                raise forms.ValidationError(
                    _(
                        "That picture is %(width)s×%(height)s pixels, too large to read: photos "
                        "up to %(most)s megapixels are fine."
                    )
                    % {
                        "width": image.width,
                        "height": image.height,
                        "most": settings.PHOTO_MAX_PIXELS // 1_000_000,
                    }
                )
            width, height = image.size
    except forms.ValidationError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError):
        raise forms.ValidationError(NOT_A_PHOTO) from None
    except (OSError, SyntaxError, ValueError):
        raise forms.ValidationError(PHOTO_DAMAGED) from None
    upload.seek(0)
    return UploadedPhoto(upload.read(), width, height)


class PhotoForm(forms.Form):
    photo = forms.FileField()

    def clean_photo(self):
        return photo_check(self.cleaned_data["photo"])
