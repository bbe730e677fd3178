"""The engine's words, kept translatable without Django.

Every sentence a person reads (a refusal, an explanation, a setting's label) is a `Message`: a
str whose value is today's English, which also keeps its msgid, its plural msgid when a number
decides the word, and its named parameters (cards, numbers, names, or messages themselves). So
the engine and its tests read plain English, and the app translates each message with its own
catalogue (`Message.words` given Django's gettext and ngettext, scorekeeper/rules_words.py).

The marker functions below carry the names Django's `makemessages` (xgettext) looks for, so the
msgids written here are extracted into the catalogue: `_` for a sentence, `ngettext_lazy` for one
whose words depend on a count, `gettext_noop` for a plain string translated where it is shown.
Placeholders are named, never positional, so a translation can put them in its own order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _english(msgid: str) -> str:
    return msgid


def _english_plural(singular: str, plural: str, number: int) -> str:
    return singular if number == 1 else plural


class Message(str):
    """A sentence for a person: the English as the str, and what translating it needs.

    `msgid` (and `plural`, chosen by `number`) is the catalogue's key, a str.format template of
    named placeholders; `params` fill them, a Message among them translated with it. Untranslated
    messages (`translatable` False) only join others, e.g. sentences with a space.
    """

    msgid: str
    plural: str | None
    number: int | None
    params: dict[str, Any]
    translatable: bool
    capitalized: bool

    @classmethod
    def build(
        cls,
        msgid: str,
        plural: str | None = None,
        number: int | None = None,
        params: dict[str, Any] | None = None,
        *,
        translatable: bool = True,
        capitalized: bool = False,
    ) -> Message:
        """The message of this msgid and parameters, its str value the English."""
        fields = {
            "msgid": msgid,
            "plural": plural,
            "number": number,
            "params": dict(params or {}),
            "translatable": translatable,
            "capitalized": capitalized,
        }
        english = _render(fields, _english, _english_plural)
        message = str.__new__(cls, english)
        message.__dict__.update(fields)
        return message

    def words(self, gettext: Gettext = _english, ngettext: Ngettext = _english_plural) -> str:
        """The message in the language of `gettext` and `ngettext`, its parameters too."""
        return _render(self.__dict__, gettext, ngettext)

    def __repr__(self) -> str:
        return f"Message({str(self)!r})"


def _render(fields: dict[str, Any], gettext: Gettext, ngettext: Ngettext) -> str:
    msgid, plural = fields["msgid"], fields["plural"]
    if not fields["translatable"]:
        template = msgid
    elif plural is None:
        template = gettext(msgid)
    else:
        template = ngettext(msgid, plural, fields["number"])
    values = {
        name: value.words(gettext, ngettext) if isinstance(value, Message) else value
        for name, value in fields["params"].items()
    }
    text = template.format_map(values)
    return text[:1].upper() + text[1:] if fields["capitalized"] else text


def _(msgid: str, /, **params: Any) -> Message:
    """A sentence to translate; `params` fill its named placeholders."""
    return Message.build(msgid, params=params)


def ngettext_lazy(singular: str, plural: str, number: int, /, **params: Any) -> Message:
    """A sentence whose words depend on `number` ("{count} joker", "{count} jokers")."""
    return Message.build(singular, plural, number, params)


def gettext_noop(msgid: str) -> str:
    """A plain string marked for the catalogue (a label), translated where it is shown."""
    return msgid


def as_message(text: str) -> Message:
    """`text` as a message: itself when it is one, else a msgid with no placeholders (a label
    marked with gettext_noop)."""
    if isinstance(text, Message):
        return text
    return Message.build(text.replace("{", "{{").replace("}", "}}"))


def capitalized(message: str) -> Message:
    """The message with its first letter upper case, in every language."""
    message = as_message(message)
    return Message.build(
        message.msgid,
        message.plural,
        message.number,
        message.params,
        translatable=message.translatable,
        capitalized=True,
    )


def joined(separator: str, parts: Iterable[Any]) -> Message:
    """Parts (messages, cards, numbers) joined by a separator that is no word, like " " between
    sentences or " | " between melds; each part is translated on its own."""
    parts = list(parts)
    escaped = separator.replace("{", "{{").replace("}", "}}")
    template = escaped.join(f"{{part{index}}}" for index in range(len(parts)))
    params = {f"part{index}": part for index, part in enumerate(parts)}
    return Message.build(template, params=params, translatable=False)


def and_joined(parts: Iterable[Any]) -> Message:
    """Parts joined by "and" ("7H and 9H and 10H"), the word translated."""
    parts = list(parts)
    message = joined("", parts[:1])
    for part in parts[1:]:
        message = _("{first} and {second}", first=message, second=part)
    return message
