"""A photo upload once its header was checked, and the words that refuse one: the form checks
the header (forms/photos.py), the worker decodes the pixels (services/photos.py), and both say
the same thing of a file that is not a photo. Imports nothing of the app (Django's
translation only): forms and services both use it."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

NOT_A_PHOTO = _("That file is not a photo we can read: use JPEG, PNG, WebP or HEIC.")
PHOTO_DAMAGED = _("That photo is damaged or cut short; please take it again.")


@dataclass(frozen=True)
class UploadedPhoto:
    """An upload whose header says it is a photo of a size the recognizer reads; decoding it,
    turning it upright and re-encoding it is the worker's job."""

    content: bytes
    width: int
    height: int
