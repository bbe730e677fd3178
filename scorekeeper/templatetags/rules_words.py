"""The rules engine's words on a page in the language of the request: {% load rules_words %}
then `{{ reason|translated }}` (scorekeeper/rules_words.py)."""

from django import template

from scorekeeper import rules_words

register = template.Library()


@register.filter
def translated(text):
    """A rules Message (a refusal, a reason, a contract's name) in the active language."""
    return rules_words.translated(text)
