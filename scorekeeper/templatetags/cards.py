from django import template
from django.utils.html import format_html, format_html_join

register = template.Library()

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _face(card) -> tuple:
    if card.is_joker:
        stands_for = (
            f" = {card.declared.rank}{SYMBOLS.get(card.declared.suit, '')}" if card.declared else ""
        )
        return ("card-face joker", f"{card}", f"JK{stands_for}")
    symbol = SYMBOLS.get(card.suit, "")
    return (f"card-face suit-{card.suit or 'none'}", f"{card}", f"{card.rank}{symbol}")


@register.simple_tag
def card_faces(cards):
    """Cards as faces: red hearts and diamonds, black spades and clubs, jokers with their card."""
    return format_html(
        '<span class="cards">{}</span>',
        format_html_join("", '<span class="{}" title="{}">{}</span>', (_face(c) for c in cards)),
    )
