"""Penalty points and score-entry checks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import Card, card_problems
from .house_rules import HouseRules
from .melds import DEFAULT_RULES


def penalty_points(cards: Iterable[Card], rules: HouseRules = DEFAULT_RULES) -> int:
    """Points of the cards left in a hand; suits never matter, so rank-only cards work."""
    points = dict(rules.points)
    return sum(points[card.rank] for card in cards)


def hand_problems(hands: Sequence[Sequence[Card]], rules: HouseRules = DEFAULT_RULES) -> list[str]:
    """Sentences for what the decks cannot hold across all the hands of a round.

    Checks more than `decks` copies of one card, more than four times `decks` of a rank
    (rank-only cards included) and more jokers than `jokers`. Empty when the hands are possible.
    """
    cards = [card for hand in hands for card in hand]
    for card in cards:
        if not isinstance(card, Card):
            return [f"{card!r} is not a card."]
    return card_problems(cards, rules.decks, rules.jokers)
