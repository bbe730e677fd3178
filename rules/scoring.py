"""Penalty points and score-entry checks."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from .cards import JOKER, Card, card_problems
from .house_rules import HouseRules
from .melds import DEFAULT_RULES
from .messages import Message, _, ngettext_lazy


@dataclass(frozen=True)
class HandEntry:
    """What a player was left holding at the end of a round: cards (suits optional) or just a
    number of points."""

    cards: tuple[Card, ...] | None = None
    points: int | None = None


def penalty_points(cards: Iterable[Card], rules: HouseRules = DEFAULT_RULES) -> int:
    """Points of the cards left in a hand; suits never matter, so rank-only cards work."""
    return sum(rules.point_value(card.rank) for card in cards)


def round_scores[K: Hashable](
    penalties: Mapping[K, int],
    rules: HouseRules = DEFAULT_RULES,
    *,
    rummy: bool = False,
    shanghai_claims: Mapping[K, int] | None = None,
) -> dict[K, int]:
    """Each player's score for a round, from the penalty points left in their hand.

    With `rummy_bonus`, going out in one turn (`rummy`) doubles everybody's penalty points. Each
    Shanghai claim takes `shanghai_bonus` points off the claimant's score, which may then be
    below zero: a bonus is worth the same to the player who went out as to anyone else.
    """
    factor = 2 if rummy and rules.rummy_bonus else 1
    claims = shanghai_claims or {}
    return {
        player: points * factor - rules.shanghai_bonus * claims.get(player, 0)
        for player, points in penalties.items()
    }


def down_after_correction[K: Hashable](
    down: AbstractSet[K], *, was_out: K, went_out: K, went_down_first: bool
) -> set[K]:
    """Who is down at the end of a round once who went out is corrected from `was_out` to
    `went_out`.

    Going out is going down, so whoever went out is down. Whoever no longer went out stays down
    only if they went down before they went out (`went_down_first`); their going out alone put
    them down, and that is taken back with it. Everyone else stays as they were.
    """
    corrected = set(down)
    if was_out != went_out and not went_down_first:
        corrected.discard(was_out)
    corrected.add(went_out)
    return corrected


def points_possible(points: int, most_cards: int, rules: HouseRules = DEFAULT_RULES) -> bool:
    """Whether some hand of 1 to `most_cards` cards is worth exactly `points` under these rules,
    with no rank more often than the decks hold it."""
    if points < 0 or most_cards < 1:
        return False
    copies: dict[int, int] = {}
    for rank, value in rules.points:
        copies[value] = copies.get(value, 0) + (rules.jokers if rank == JOKER else 4 * rules.decks)
    # reachable[n] is a bit set of the totals that n cards can make (bit t set: total t).
    reachable = [1] + [0] * most_cards
    mask = (1 << (points + 1)) - 1
    for value, count in copies.items():
        for held in range(most_cards, 0, -1):
            for taken in range(1, min(count, held) + 1):
                reachable[held] |= (reachable[held - taken] << (taken * value)) & mask
    return any(reachable[held] >> points & 1 for held in range(1, most_cards + 1))


def held_refusal(*, player: str, held: int, most_cards: int, contract: int) -> Message | None:
    """Why `player` cannot have been left holding `held` cards in `contract`, or None: no more
    than the deal plus what their May I?s and Shanghai claims brought (`most_cards`)."""
    if held > most_cards:
        return _(
            "{player} cannot hold {held} cards: at most {most} in contract {contract} (the deal "
            "plus what May I?s brought).",
            player=player,
            held=held,
            most=most_cards,
            contract=contract,
        )
    return None


def points_refusal(
    *, player: str, points: int, most_cards: int, rules: HouseRules = DEFAULT_RULES
) -> Message | None:
    """Why `points` cannot be what `player`, who did not go out, was left holding, or None: at
    least one card, so above 0, and a total some hand of at most `most_cards` cards makes."""
    if points <= 0:
        return _(
            "{player} did not go out, so they hold at least one card: points above 0.",
            player=player,
        )
    if not points_possible(points, most_cards, rules):
        return ngettext_lazy(
            "No hand of at most {most} cards is worth {points} point under this table's rules: "
            "check {player}'s points.",
            "No hand of at most {most} cards is worth {points} points under this table's rules: "
            "check {player}'s points.",
            points,
            most=most_cards,
            points=points,
            player=player,
        )
    return None


def hand_problems(
    hands: Sequence[Sequence[Card]], rules: HouseRules = DEFAULT_RULES
) -> list[Message]:
    """Sentences for what the decks cannot hold across all the hands of a round.

    Checks more than `decks` copies of one card, more than four times `decks` of a rank
    (rank-only cards included) and more jokers than `jokers`. Empty when the hands are possible.
    """
    cards = [card for hand in hands for card in hand]
    for card in cards:
        if not isinstance(card, Card):
            return [_("{card} is not a card.", card=repr(card))]
    return card_problems(cards, rules.decks, rules.jokers)
