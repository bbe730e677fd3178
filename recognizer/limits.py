"""The photo limits the app and the recognizer share.

Standard library only: the settings and the models read them (every management command imports
the models), and importing them loads no image or network library.
"""

# The largest photo read: decompression bombs are refused, and 50 megapixels is well above any
# phone camera. The app may accept less (DJANGO_PHOTO_MAX_MEGAPIXELS), never more.
MAX_PIXELS = 50_000_000

# Cards read less surely than this are shown flagged, for the player to check before a meld is
# checked or a hand scored.
SURE_CONFIDENCE = 0.95
