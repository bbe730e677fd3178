"""A table's actions, declared once: each kind of event's words in the history, on a tablet's
queue of taps made with no connection, and in the refusal of a tap made on a stale screen; and
how the screen shows such a tap while it waits. The round screen's buttons carry these as
`data-` attributes ({% tap %} in templatetags/actions.py), which static/js/live.js reads: the
script knows no action by name. Reads only the models, so services, selectors and templates
all word an action alike."""

from dataclasses import dataclass

from scorekeeper.models import Event


@dataclass(frozen=True)
class Action:
    """One kind of event. Each text is a `str.format` template of the words the caller gives."""

    history: str  # its entry in the table's history (and its undo bar, and the stale refusal)
    queued: str = ""  # what a tap that waits is called (undo bar, notes); none: it never waits
    shows: str = ""  # how the screen shows a tap that waits (live.js's `shows`); none: not at all
    stale: str = ""  # what a stale tap's refusal says of it, if not the history's words
    takes_back: bool = False  # tapped while taps wait, it takes back the last one unsent


ACTIONS = {
    Event.Kind.MAY_I: Action(
        history="{player} called May I? ({left} left)", queued="{player}: May I?", shows="coin"
    ),
    Event.Kind.WENT_DOWN: Action(
        history="{player} went down{melds}", queued="{player} went down", shows="down"
    ),
    # `how`: " in one turn", then ": " and the melds or " with the whole hand", or nothing.
    Event.Kind.WENT_OUT: Action(
        history="{player} went out{how}", queued="{player} went out{how}", shows="score-entry"
    ),
    # `what`: "discard", or the card and the meld it went onto.
    Event.Kind.SHANGHAI_CLAIM: Action(
        history="{player} claimed {discarder}'s {what}: Shanghai!",
        queued="{player} claimed {discarder}'s discard",
        shows="tally",
    ),
    Event.Kind.SHANGHAI_PROTECT: Action(
        history="{player} called Shanghai on their own discard",
        queued="{player} protected own discard",
        shows="tally",
    ),
    Event.Kind.LAID_OFF: Action(history="{player} laid off {cards} on {owner}'s {meld}"),
    Event.Kind.ROUND_SCORED: Action(
        history="Contract {number} scored: {summary}",
        queued="the scores of contract {number}",
        shows="scores",
        stale="{who} saved contract {number}",
    ),
    Event.Kind.SCORE_EDITED: Action(
        history="Contract {number} scores edited: {changes}",
        stale="{who} corrected contract {number}'s scores",
    ),
    Event.Kind.UNDO: Action(history="Undid: {undone}", queued="Undo", takes_back=True),
}


def history(kind: Event.Kind, **words) -> str:
    """An event's entry in the history, in its kind's words."""
    return ACTIONS[kind].history.format(**words)
