"""How much searching one question may do: a count of steps, never a time.

A step is a candidate meld built or tried, or a search state visited; one question (its
search and the searches that explain a refusal) shares one budget. Counting steps rather than
milliseconds keeps every answer the same on any machine under any load: a hand either fits in
the budget everywhere or nowhere. `python -m rules.bench` measures what a step costs; the
limit keeps the slowest question at the house-rule bounds well under 100 ms.
"""

from __future__ import annotations

from dataclasses import dataclass

# Steps one question may take: at most about 50 ms of processor time at the bounds on the
# busy 2-core dev machine (python -m rules.bench --part bounds). The slowest hands known under
# the seed rules take about half of it, and no random hand at the bounds has needed all of it.
STEPS = 50_000
# What the steps of the search cost, as the candidate melds tried: visiting a state, counting
# what the cards left could still make (bounds.prospects), building a book (a run costs a step
# per card).
VISIT_STEPS = 5
PROSPECT_STEPS = 20
BOOK_STEPS = 4


class BudgetSpent(Exception):
    """The search took every step its question may take."""


@dataclass(slots=True)
class Budget:
    """The steps one question may still take; spend() raises BudgetSpent past the limit."""

    limit: int = STEPS
    spent: int = 0

    def spend(self, steps: int = 1) -> None:
        """Count `steps` more; BudgetSpent when that goes past the limit."""
        self.spent += steps
        if self.spent > self.limit:
            raise BudgetSpent
