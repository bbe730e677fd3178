"""Names as people type them, made one canonical text: the one function every name that enters
the app goes through (forms, services, imports), so "Ann", " Ann " and "A\u200bnn" are one player.

Imports nothing of the app (Django's translation only): forms, services and the importer all use
it."""

import unicodedata

from django.utils.translation import gettext

# Unicode categories taken out of a name: controls (NUL included, which PostgreSQL refuses in
# text), format characters (bidi controls U+200E/F, U+202A-202E, U+2066-2069, zero-width
# U+200B-200D, U+2060, U+FEFF, the soft hyphen) and lone surrogates (which no database stores).
INVISIBLE = {"Cc", "Cf", "Cs"}


class NameRefused(ValueError):
    """A name that is empty once cleaned, or longer than it can be, in the player's words."""


def name_clean(text: str, *, max_length: int) -> str:
    """`text` in its canonical form: Unicode NFC, without control, bidi or zero-width
    characters, every run of white space one space, trimmed. Refused with NameRefused when
    nothing is left or it is longer than `max_length` characters (the column's size)."""
    if not isinstance(text, str):
        raise NameRefused(gettext("A name must be text."))
    cleaned = _canonical(text)
    if not cleaned:
        raise NameRefused(
            gettext("Enter a name that shows: this one is only spaces or invisible characters.")
        )
    if len(cleaned) > max_length:
        raise NameRefused(
            gettext("A name can be at most %(most)s characters; this one has %(length)s.")
            % {"most": max_length, "length": len(cleaned)}
        )
    return cleaned


def name_key(name: str) -> str:
    """What two names are compared by: the same letters whatever their case ("ann" is "Ann"),
    decided here rather than by the database (SQLite folds only ASCII letters). Names stored
    before they were cleaned compare cleaned too."""
    return _canonical(name).casefold()


def _canonical(text: str) -> str:
    kept = "".join(
        " " if char.isspace() else char
        for char in unicodedata.normalize("NFC", text)
        if char.isspace() or unicodedata.category(char) not in INVISIBLE
    )
    # Again after removing: a zero-width character may have stood between a letter and its accent.
    return " ".join(unicodedata.normalize("NFC", kept).split())
