"""A tap's button as the offline queue reads it: `data-label`, `data-shows` and `data-takes-back`
from the action's declaration (scorekeeper/actions.py); what it sends is the form's own."""

from django import template
from django.utils.html import format_html_join

from scorekeeper.actions import ACTIONS, Kind

register = template.Library()


@register.simple_tag
def tap(kind: str, **words):
    """` data-label="Ann: May I?" data-shows="coin"` for the event kind named, its words given."""
    action = ACTIONS[Kind(kind)]
    attributes = [("data-label", action.queued.format(**words))]
    if action.shows:
        attributes.append(("data-shows", action.shows))
    if action.takes_back:
        attributes.append(("data-takes-back", ""))
    return format_html_join("", ' {}="{}"', attributes)
