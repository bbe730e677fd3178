"""The labels the recognizer outputs, in the notation of rules/ (``10H``, ``QS``, ``JK``)."""

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
JOKER = "JK"
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS) + (JOKER,)
# The classifier's last class: a patch that is not a corner index.
BACKGROUND = "-"
CLASSES = CARDS + (BACKGROUND,)
