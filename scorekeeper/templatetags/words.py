"""The words the page's scripts say (static/js), in the page's language: base.html carries them
as JSON (`{% script_words %}`), so a page kept for a tablet with no connection has them too.
Each is keyed by its English, a template of {named} placeholders that the script fills
(app.js's `translated`); one that counts something is a pair, its singular's and its plural's
(app.js's `translatedCount`). A page carries only the words its language changes."""

from django import template
from django.utils import translation
from django.utils.html import json_script
from django.utils.translation import gettext, gettext_noop, ngettext

register = template.Library()

WORDS = [
    # app.js
    gettext_noop("Seat {seat} (nobody yet)"),
    # cards.js
    gettext_noop("Cards entered: tap one to take it out"),
    gettext_noop("Take out {card}"),
    gettext_noop("Take out {card}, read unsure"),
    gettext_noop("The next card goes here"),
    # live.js
    gettext_noop("No connection. Taps wait here and are sent once it is back."),
    gettext_noop("No connection. The scores update again once it is back."),
    gettext_noop(
        "The connection dropped while your tap was on its way. The table updates when it is back: "
        "check it, and tap again if your tap is not there."
    ),
    gettext_noop("The table changed while you were offline: your tap was not sent. Tap again."),
    gettext_noop("Connected again. Check the table, and tap again if your tap is not there."),
    gettext_noop("Cannot reach the server: trying again…"),
    gettext_noop("The server had a problem: trying again…"),
    gettext_noop("Your tap was not saved: {why}"),
    gettext_noop("That could not be loaded: {why}"),
    gettext_noop("the server had a problem. Try again in a moment."),
    gettext_noop("too many attempts. Wait a moment, then try again."),
    gettext_noop("it is no longer there. Reload the page."),
    gettext_noop("the server refused it. Reload the page and try again."),
    gettext_noop("The server had a problem"),
    gettext_noop("The connection dropped while sending"),
    gettext_noop(
        "Taps kept on this tablet for this table could not be read, so they were not sent."
    ),
    gettext_noop("Taps kept on this tablet by another version of the app were not sent."),
    gettext_noop("Taps kept on this tablet for another table were not sent."),
    gettext_noop("Taps made on this tablet by another account were not sent."),
    gettext_noop("Taken back before it was sent: {label}."),
    gettext_noop(
        "This tablet could not keep your tap (its storage is full or refused): it was not sent. "
        "Try again once the connection is back."
    ),
    gettext_noop(
        "These hands wait to be sent: the next contract shows once the connection is back."
    ),
    gettext_noop("Down"),
    gettext_noop("Last: {label} (waits to be sent)"),
    gettext_noop("Undo"),
    gettext_noop("Copied"),
    # tablet.js
    gettext_noop("Dismiss"),
    gettext_noop("Clear"),
    gettext_noop(
        "Hands kept on this tablet for this table could not be read, so they were not restored."
    ),
    gettext_noop("Hands kept on this tablet by another version of the app were not restored."),
    gettext_noop("Hands kept on this tablet for another table were not restored."),
    gettext_noop("at {clock}"),
    gettext_noop("on {day} at {clock}"),
    gettext_noop("Restored the hands you typed {when} — "),
    gettext_noop("contract {contract} was saved on another screen meanwhile"),
    gettext_noop("the table was changed on another screen meanwhile"),
    gettext_noop("The hands typed here for contract {contract} were not restored: {why}."),
]


def _counted(number: int) -> list[str]:
    """The words that count something, for `number` (1: the singulars, 2: the plurals)."""
    return [
        ngettext(
            "No connection. Your tap waits and is sent once the connection is back.",
            "No connection. Your {count} taps wait and are sent, in order, once the connection "
            "is back.",
            number,
        ),
        ngettext("Sending your tap…", "Sending your {count} taps…", number),
        ngettext("{count} May I? left", "{count} May I?s left", number),
        ngettext("{count} Shanghai claim", "{count} Shanghai claims", number),
        ngettext("{count} Shanghai protect", "{count} Shanghai protects", number),
        ngettext(
            "{count} more tap made with no connection was not sent, as the table was not what "
            "it was made on: {labels}. Tap again what still applies.",
            "{count} more taps made with no connection were not sent, as the table was not what "
            "they were made on: {labels}. Tap again what still applies.",
            number,
        ),
        ngettext(
            "{why}. Your tap waits and is sent again in a moment; none counts twice.",
            "{why}. Your {count} taps wait and are sent again in a moment; none counts twice.",
            number,
        ),
    ]


@register.simple_tag
def script_words():
    """The words, as the JSON script element app.js reads (#script-words)."""
    words = {english: gettext(english) for english in WORDS}
    with translation.override("en"):
        singulars, plurals = _counted(1), _counted(2)
    pairs = zip(singulars, plurals, _counted(1), _counted(2), strict=True)
    words |= {singular: [one, other] for singular, plural, one, other in pairs}
    # Only what the language changes: the scripts say their own English for the rest, so an
    # English page carries nothing.
    english = dict(zip(singulars, zip(singulars, plurals, strict=True), strict=True))
    changed = {
        key: said
        for key, said in words.items()
        if said != (list(english[key]) if key in english else key)
    }
    return json_script(changed, "script-words")
