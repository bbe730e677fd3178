"""May I?: taking the discard out of turn, a few times a round."""

from __future__ import annotations

from .house_rules import HouseRules


def may_i_refusal(
    rules: HouseRules, *, player: str, went_down: bool, used: int, limit: int
) -> str | None:
    """Why `player` may not call May I? now, in the players' words, or None when they may.

    `went_down`: whether they have gone down this round, which ends their May I?s unless the
    house rules allow more (`may_i_after_down`); `used` of `limit` May I?s spent this round.
    """
    if went_down and not rules.may_i_after_down:
        return f"{player} has gone down; these rules allow no May I? after that."
    if used >= limit:
        return f"{player} has no May I? left this round: the limit is {limit} a round."
    return None
