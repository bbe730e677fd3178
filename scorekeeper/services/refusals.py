"""Why a write did not happen, in the player's words."""


class ActionRefused(Exception):
    """A write that must not happen, with the reason in the player's words."""


class StaleState(ActionRefused):
    """The screen the write was based on is out of date: someone else changed the table."""

    def __init__(self):
        super().__init__(
            "Someone else changed this table a moment ago, so nothing was saved. "
            "Here is the table as it is now."
        )


class ImportRefused(ActionRefused):
    """A club export that cannot be imported, with the reason; nothing was changed."""
