"""What a player may call during a round (rules/turns.py): May I?, a Shanghai claim, going out
in one turn, and why not when they may not."""

import pytest

from rules import HouseRules, in_one_turn_refusal, may_i_refusal, shanghai_claim_refusal


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


def test_a_shanghai_claim_needs_a_meld_on_the_table():
    assert shanghai_claim_refusal(discarder="Ben", anyone_down=True) is None
    assert shanghai_claim_refusal(discarder="Ben", anyone_down=False) == (
        "Nobody has gone down yet, so no meld is on the table to lay Ben's discard on: "
        "it cannot be a Shanghai."
    )


def test_going_out_in_one_turn_means_not_down_before():
    assert in_one_turn_refusal(player="Ann", went_down=False) is None
    assert in_one_turn_refusal(player="Ann", went_down=True) == (
        "Ann went down earlier this round, so going out now is not in one turn."
    )
