"""A table's actions, declared once: each kind of event (`Kind`, which the models store as
`Event.Kind`), its words in the history, on a tablet's queue of taps made with no connection,
and in the refusal of a tap made on a stale screen; and how the screen shows such a tap while
it waits. The round screen's buttons carry these as `data-` attributes ({% tap %} in
templatetags/actions.py), which static/js/live.js reads: the script knows no action by name.
Imports none of ours: the models, services, selectors and templates all read an action from
here."""

from dataclasses import dataclass

from django.db import models


class Kind(models.TextChoices):
    """Each kind of event of a table's history (`Event.kind`)."""

    MAY_I = "may_i", "May I?"
    WENT_DOWN = "went_down", "Went down"
    WENT_OUT = "went_out", "Went out"
    SHANGHAI_CLAIM = "shanghai_claim", "Shanghai claim"
    SHANGHAI_PROTECT = "shanghai_protect", "Shanghai protect"
    LAID_OFF = "laid_off", "Laid off"
    ROUND_SCORED = "round_scored", "Round scored"
    SCORE_EDITED = "score_edited", "Score edited"
    UNDO = "undo", "Undo"


def kind_choices() -> list[tuple[str, str]]:
    """`Event.kind`'s choices, named by the field rather than copied into a migration: a new
    kind needs none, and the admin, `get_kind_display` and an import's check still know them."""
    return Kind.choices


@dataclass(frozen=True)
class Action:
    """One kind of event. Each text is a `str.format` template of the words the caller gives."""

    history: str  # its entry in the table's history (and its undo bar, and the stale refusal)
    queued: str = ""  # what a tap that waits is called (undo bar, notes); none: it never waits
    shows: str = ""  # how the screen shows a tap that waits (live.js's `shows`); none: not at all
    stale: str = ""  # what a stale tap's refusal says of it, if not the history's words
    takes_back: bool = False  # tapped while taps wait, it takes back the last one unsent


ACTIONS = {
    Kind.MAY_I: Action(
        history="{player} called May I? ({left} left)",
        queued="{player}: May I?",
        shows="coin",
    ),
    Kind.WENT_DOWN: Action(
        history="{player} went down{melds}",
        queued="{player} went down",
        shows="down",
    ),
    # `how`: " in one turn", then ": " and the melds or " with the whole hand", or nothing.
    Kind.WENT_OUT: Action(
        history="{player} went out{how}",
        queued="{player} went out{how}",
        shows="score-entry",
    ),
    # `what`: "discard", or the card and the meld it went onto.
    Kind.SHANGHAI_CLAIM: Action(
        history="{player} claimed {discarder}'s {what}: Shanghai!",
        queued="{player} claimed {discarder}'s discard",
        shows="tally",
    ),
    Kind.SHANGHAI_PROTECT: Action(
        history="{player} called Shanghai on their own discard",
        queued="{player} protected own discard",
        shows="tally",
    ),
    Kind.LAID_OFF: Action(history="{player} laid off {cards} on {owner}'s {meld}"),
    Kind.ROUND_SCORED: Action(
        history="Contract {number} scored: {summary}",
        queued="the scores of contract {number}",
        shows="scores",
        stale="{who} saved contract {number}",
    ),
    Kind.SCORE_EDITED: Action(
        history="Contract {number} scores edited: {changes}",
        stale="{who} corrected contract {number}'s scores",
    ),
    Kind.UNDO: Action(history="Undid: {undone}", queued="Undo", takes_back=True),
}


def history(kind: Kind, **words) -> str:
    """An event's entry in the history, in its kind's words."""
    return ACTIONS[kind].history.format(**words)
