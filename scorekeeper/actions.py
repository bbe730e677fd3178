"""A table's actions, declared once: each kind of event's words in the history, on a tablet's
queue of taps made with no connection, and in the refusal of a tap made on a stale screen; and
how the screen shows such a tap while it waits. The round screen's buttons carry these as
`data-` attributes ({% tap %} in templatetags/actions.py), which static/js/live.js reads: the
script knows no action by name. Reads only the models, so services, selectors and templates
all word an action alike."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from scorekeeper.models import Event


@dataclass(frozen=True)
class Action:
    """One kind of event. Each text is a `str.format` template of the words the caller gives."""

    # Each text is translated (gettext_lazy) into the language of the page that formats it.
    history: str  # its entry in the table's history (and its undo bar, and the stale refusal)
    queued: str = ""  # what a tap that waits is called (undo bar, notes); none: it never waits
    shows: str = ""  # how the screen shows a tap that waits (live.js's `shows`); none: not at all
    stale: str = ""  # what a stale tap's refusal says of it, if not the history's words
    takes_back: bool = False  # tapped while taps wait, it takes back the last one unsent


ACTIONS = {
    Event.Kind.MAY_I: Action(
        history=_("{player} called May I? ({left} left)"),
        queued=_("{player}: May I?"),
        shows="coin",
    ),
    Event.Kind.WENT_DOWN: Action(
        history=_("{player} went down{melds}"), queued=_("{player} went down"), shows="down"
    ),
    # `how`: " in one turn", then ": " and the melds or " with the whole hand", or nothing.
    Event.Kind.WENT_OUT: Action(
        history=_("{player} went out{how}"), queued=_("{player} went out{how}"), shows="score-entry"
    ),
    # `what`: "discard", or the card and the meld it went onto.
    Event.Kind.SHANGHAI_CLAIM: Action(
        history=_("{player} claimed {discarder}'s {what}: Shanghai!"),
        queued=_("{player} claimed {discarder}'s discard"),
        shows="tally",
    ),
    Event.Kind.SHANGHAI_PROTECT: Action(
        history=_("{player} called Shanghai on their own discard"),
        queued=_("{player} protected own discard"),
        shows="tally",
    ),
    Event.Kind.LAID_OFF: Action(history=_("{player} laid off {cards} on {owner}'s {meld}")),
    Event.Kind.ROUND_SCORED: Action(
        history=_("Contract {number} scored: {summary}"),
        queued=_("the scores of contract {number}"),
        shows="scores",
        stale=_("{who} saved contract {number}"),
    ),
    Event.Kind.SCORE_EDITED: Action(
        history=_("Contract {number} scores edited: {changes}"),
        stale=_("{who} corrected contract {number}'s scores"),
    ),
    Event.Kind.UNDO: Action(history=_("Undid: {undone}"), queued=_("Undo"), takes_back=True),
}


# The words the services give in English that are the history's own (a claim's discard, how a
# player went out), said in the language of the history's entry.
OWN_WORDS = {
    "discard": _("discard"),
    " in one turn": _(" in one turn"),
    " with the whole hand": _(" with the whole hand"),
}


def own_words(text):
    if not isinstance(text, str):
        return text
    if text == "discard":
        return str(OWN_WORDS[text])
    for english, translated in OWN_WORDS.items():
        if english.startswith(" "):  # a phrase of `how`, which melds in card notation may follow
            text = text.replace(english, str(translated))
    return text


def history(kind: Event.Kind, **words) -> str:
    """An event's entry in the history, in its kind's words (and language)."""
    return ACTIONS[kind].history.format(**{key: own_words(word) for key, word in words.items()})
