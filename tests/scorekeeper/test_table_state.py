"""The table as a whole: the table's state machine (tests/scorekeeper/table_machine.py) under
each house rules, checked after every step.

Each house rules' table is a test of its own, in parts that the workers share out (a long test
run last keeps the others waiting). `make test` runs a short search (tests/depth.py); CI sets
TEST_DEPTH=ci for three parts of 23 examples of 30 steps each (69 for each house rules of
table_machine.HOUSE_RULES: three made for the test, and each known game but the seed's).
"""

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.depth import examples
from tests.scorekeeper.table_machine import HOUSE_RULES, Table

# slow: a Hypothesis state machine, run by hand.
pytestmark = pytest.mark.slow

# Examples a test, steps an example, and parts (tests) for each house rules.
EXAMPLES, STEPS, PARTS = examples(dev=(9, 25, 1), ci=(23, 30, 3))


@pytest.mark.django_db
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_every_sequence_of_actions_keeps_the_table_whole(name, part):
    run_state_machine_as_test(
        type("Table", (Table,), {"name": name}),
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
