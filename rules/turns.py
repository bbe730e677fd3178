"""What a player may call during a round: May I?, a Shanghai claim, going out in one turn.

Each function answers with the refusal in the players' words, or None when the call stands.
"""

from __future__ import annotations

from .house_rules import HouseRules
from .messages import Message, _


def may_i_refusal(
    rules: HouseRules, *, player: str, went_down: bool, used: int, limit: int
) -> Message | None:
    """Why `player` may not call May I? now, in the players' words, or None when they may.

    `went_down`: whether they have gone down this round, which ends their May I?s unless the
    house rules allow more (`may_i_after_down`); `used` of `limit` May I?s spent this round.
    """
    if went_down and not rules.may_i_after_down:
        return _("{player} has gone down; these rules allow no May I? after that.", player=player)
    if used >= limit:
        return _(
            "{player} has no May I? left this round: the limit is {limit} a round.",
            player=player,
            limit=limit,
        )
    return None


def shanghai_claim_refusal(*, discarder: str, anyone_down: bool) -> Message | None:
    """Why claiming `discarder`'s discard cannot be a Shanghai, or None when it can.

    A Shanghai claim lays the discard off on a meld on the table, so someone must have gone down
    this round. (Calling Shanghai on one's own discard, to protect it, is always allowed.)
    """
    if not anyone_down:
        return _(
            "Nobody has gone down yet, so no meld is on the table to lay {discarder}'s "
            "discard on: it cannot be a Shanghai.",
            discarder=discarder,
        )
    return None


def in_one_turn_refusal(*, player: str, went_down: bool) -> Message | None:
    """Why going out now is not in one turn (a rummy), or None when it is: going out in one
    turn lays the whole hand down at once, so the player must not have gone down earlier."""
    if went_down:
        return _(
            "{player} went down earlier this round, so going out now is not in one turn.",
            player=player,
        )
    return None
