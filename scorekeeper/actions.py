"""A table's actions, declared once: each kind of event (`Kind`, which the models store as
`Event.Kind`), its words in the history, on a tablet's queue of taps made with no connection,
and in the refusal of a tap made on a stale screen; how the screen shows such a tap while it
waits; and, for a tap of the round screen, the address it posts to, the form that cleans it and
the service that records it. The round screen's buttons carry the words as `data-` attributes
({% tap %} in templatetags/actions.py), which static/js/live.js reads: the script knows no
action by name. Imports none of ours: the models, services, selectors, views and templates all
read an action from here (the forms and services by their dotted names, which the tap view
resolves and the system check `taps_resolve` resolves at start)."""

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    """Each kind of event of a table's history (`Event.kind`)."""

    MAY_I = "may_i", _("May I?")
    WENT_DOWN = "went_down", _("Went down")
    WENT_OUT = "went_out", _("Went out")
    SHANGHAI_CLAIM = "shanghai_claim", _("Shanghai claim")
    SHANGHAI_PROTECT = "shanghai_protect", _("Shanghai protect")
    LAID_OFF = "laid_off", _("Laid off")
    ROUND_SCORED = "round_scored", _("Round scored")
    SCORE_EDITED = "score_edited", _("Score edited")
    UNDO = "undo", _("Undo")


def kind_choices() -> list[tuple[str, str]]:
    """`Event.kind`'s choices, named by the field rather than copied into a migration: a new
    kind needs none, and the admin, `get_kind_display` and an import's check still know them."""
    return Kind.choices


@dataclass(frozen=True)
class Tap:
    """A button of the round screen that posts to /tables/<id>/<word>/ (the URL named `word`
    with underscores, scorekeeper/urls.py): `service` (a dotted path below
    scorekeeper.services, a `@table_write`) records it, `form` (one below scorekeeper.forms:
    the seat's, unless the tap sends more than a seat) cleans what it sends for the table's
    seats and `say_saved`: the answer says "Saved: ..." (a tap whose effect is not plain to see)."""

    word: str
    service: str
    form: str = "tables.SeatActionForm"
    say_saved: bool = False

    @property
    def name(self) -> str:
        return self.word.replace("-", "_")

    @property
    def paths(self) -> tuple[str, str]:
        """The form's and the service's full dotted paths."""
        return f"scorekeeper.forms.{self.form}", f"scorekeeper.services.{self.service}"


@dataclass(frozen=True)
class Action:
    """One kind of event. Each text is a `str.format` template of the words the caller gives."""

    # Each text is translated (gettext_lazy) into the language of the page that formats it.
    history: str  # its entry in the table's history (and its undo bar, and the stale refusal)
    queued: str = ""  # what a tap that waits is called (undo bar, notes); none: it never waits
    shows: str = ""  # how the screen shows a tap that waits (live.js's `shows`); none: not at all
    stale: str = ""  # what a stale tap's refusal says of it, if not the history's words
    takes_back: bool = False  # tapped while taps wait, it takes back the last one unsent
    tap: Tap | None = None  # the round screen's tap that records it, if it has one of its own


# One button for both Shanghai calls: a discarder named is a claim, none a protect.
SHANGHAI = Tap(
    "shanghai", form="tables.ShanghaiForm", service="tables.shanghai_record", say_saved=True
)

ACTIONS = {
    Kind.MAY_I: Action(
        history=_("{player} called May I? ({left} left)"),
        queued=_("{player}: May I?"),
        shows="coin",
        tap=Tap("may-i", service="tables.may_i_spend"),
    ),
    Kind.WENT_DOWN: Action(
        history=_("{player} went down{melds}"),
        queued=_("{player} went down"),
        shows="down",
        tap=Tap("went-down", service="tables.hand_mark_down", say_saved=True),
    ),
    # `how`: " in one turn", then ": " and the melds or " with the whole hand", or nothing.
    Kind.WENT_OUT: Action(
        history=_("{player} went out{how}"),
        queued=_("{player} went out{how}"),
        shows="score-entry",
        tap=Tap("went-out", form="tables.WentOutForm", service="tables.round_record_went_out"),
    ),
    # `what`: "discard", or the card and the meld it went onto.
    Kind.SHANGHAI_CLAIM: Action(
        history=_("{player} claimed {discarder}'s {what}: Shanghai!"),
        queued=_("{player} claimed {discarder}'s discard"),
        shows="tally",
        tap=SHANGHAI,
    ),
    Kind.SHANGHAI_PROTECT: Action(
        history=_("{player} called Shanghai on their own discard"),
        queued=_("{player} protected own discard"),
        shows="tally",
        tap=SHANGHAI,
    ),
    # No tap of their own, each its own view: a lay-off from the melds page (views/melds.py);
    # in views/games.py the scores (`score`: a refusal keeps what was typed), an edit
    # (`round_edit`) and undo (`undo`: it answers with the table read afresh).
    Kind.LAID_OFF: Action(history=_("{player} laid off {cards} on {owner}'s {meld}")),
    Kind.ROUND_SCORED: Action(
        history=_("Contract {number} scored: {summary}"),
        queued=_("the scores of contract {number}"),
        shows="scores",
        stale=_("{who} saved contract {number}"),
    ),
    Kind.SCORE_EDITED: Action(
        history=_("Contract {number} scores edited: {changes}"),
        stale=_("{who} corrected contract {number}'s scores"),
    ),
    Kind.UNDO: Action(history=_("Undid: {undone}"), queued=_("Undo"), takes_back=True),
}

# The round screen's taps by their address's word (urls.py makes one address each).
TAPS = {action.tap.word: action.tap for action in ACTIONS.values() if action.tap}


def history(kind: Kind, **words) -> str:
    """An event's entry in the history, in its kind's words, in the active language (the
    words given are the caller's, already in it)."""
    return ACTIONS[kind].history.format(**words)
