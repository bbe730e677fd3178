"""Going down: checking an initial meld, and finding the best one in a hand.

verdicts.py answers the two questions and explains refusals; search.py is the search for an
arrangement of the cards, candidates.py the melds it tries, bounds.py the counting that lets it
give up early, plans.py the melds as it counts them, budget.py the steps one question may take
before the search gives up.
"""

from .verdicts import check_going_down, find_going_down

__all__ = ["check_going_down", "find_going_down"]
