"""The rules engine's words in the language of the request (rules/messages.py).

Every refusal, verdict and summary sentence of `rules` is a `rules.Message` whose str is the
English; here, where a service, form, view or template turns one into text for a person, it is
looked up in the catalogue with Django's gettext (ngettext where a number decides the words) and
its parameters filled after, themselves translated when they are messages.
"""

from django.utils.translation import gettext, ngettext

from rules import Message


def translated(text: str) -> str:
    """`text` in the active language when it is a rules Message; any other text as it is."""
    if isinstance(text, Message):
        return text.words(gettext, ngettext)
    return str(text)


def translated_reasons(reasons: list[str]) -> str:
    """A verdict's reasons as one paragraph in the active language."""
    return " ".join(translated(reason) for reason in reasons)
