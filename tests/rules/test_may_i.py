"""May I? (rules/may_i.py): when a player may call it, and why not when they may not."""

import pytest

from rules import HouseRules, may_i_refusal


@pytest.mark.parametrize(
    ("after_down", "went_down", "used", "limit", "words"),
    [
        (True, False, 0, 2, None),
        (True, False, 1, 2, None),
        (True, True, 1, 2, None),  # the seed rules allow it after going down
        (False, False, 1, 2, None),
        (False, True, 0, 2, "Ann has gone down; these rules allow no May I? after that."),
        (True, False, 2, 2, "Ann has no May I? left this round: the limit is 2 a round."),
        (True, False, 0, 0, "Ann has no May I? left this round: the limit is 0 a round."),
        # Going down is said first: spending none would not help.
        (False, True, 2, 2, "Ann has gone down; these rules allow no May I? after that."),
    ],
)
def test_may_i_is_refused_after_going_down_if_the_rules_say_and_past_the_limit(
    after_down, went_down, used, limit, words
):
    rules = HouseRules(may_i_after_down=after_down)
    refusal = may_i_refusal(rules, player="Ann", went_down=went_down, used=used, limit=limit)
    assert refusal == words
