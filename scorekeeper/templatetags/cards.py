from django import template
from django.utils.html import format_html, format_html_join

register = template.Library()


def _face(card) -> tuple:
    kind = "joker" if card.is_joker else f"suit-{card.suit or 'none'}"
    return (f"card-face {kind}", str(card), card.symbol())


@register.simple_tag
def card_faces(cards):
    """Cards as faces: red hearts and diamonds, black spades and clubs, jokers with their card."""
    return format_html(
        '<span class="cards">{}</span>',
        format_html_join("", '<span class="{}" title="{}">{}</span>', (_face(c) for c in cards)),
    )
