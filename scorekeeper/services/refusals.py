"""Why a write did not happen, in the player's words."""

from django.utils.translation import gettext as _


class ActionRefused(Exception):
    """A write that must not happen, with the reason in the player's words."""


class StaleState(ActionRefused):
    """The screen the write was based on is out of date: someone else changed the table."""

    def __init__(self, changes: list[str] = ()):
        """`changes`: what the other screens did meanwhile, newest first, in the history's words."""
        if changes:
            done = "; ".join(changes)
            super().__init__(
                _(
                    "On another screen a moment ago: %(done)s. So nothing was saved from your "
                    "tap: here is the table as it is now."
                )
                % {"done": done}
            )
        else:
            super().__init__(
                _(
                    "Someone else changed this table a moment ago, so nothing was saved. "
                    "Here is the table as it is now."
                )
            )


class ImportRefused(ActionRefused):
    """A club export that cannot be imported, with the reason; nothing was changed."""


class PhotoStoreUnavailable(ActionRefused):
    """The photo store (the bucket, or the disk) cannot be reached or refuses: photos can be
    neither kept nor shown now, and everything else works."""

    def __init__(self):
        super().__init__(
            _(
                "Photos cannot be kept or shown just now: the photo store does not answer. "
                "Type the cards instead; everything else works."
            )
        )


class WrongPassword(ActionRefused):
    """A password typed to confirm something was not the member's: counted like a login's."""
