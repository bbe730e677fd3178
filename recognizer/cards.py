"""The labels the recognizer outputs, in the notation of rules/ (``10H``, ``QS``, ``JK``)."""

from rules.cards import JOKER, RANKS, SUITS

CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS) + (JOKER,)
# The classifier's last class: a patch that is not a corner index.
BACKGROUND = "-"
CLASSES = CARDS + (BACKGROUND,)
