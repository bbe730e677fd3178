"""Every house-rules setting described for a form, and the bounds of what a real table can be:
HouseRules refuses anything outside them, so no form, import or API stores an unplayable game."""

from dataclasses import dataclass

from .cards import JOKER, RANKS

DEFAULT_POINTS = (
    ("2", 5),
    ("3", 5),
    ("4", 5),
    ("5", 5),
    ("6", 5),
    ("7", 5),
    ("8", 10),
    ("9", 10),
    ("10", 10),
    ("J", 10),
    ("Q", 10),
    ("K", 10),
    ("A", 20),
    (JOKER, 50),
)
POINT_RANKS = (*RANKS, JOKER)
MAX_POINTS = 1000
# What a real table can be, beyond each setting's own bounds below: a Shanghai evening is a few
# contracts of a few melds each, and nobody holds more cards than this (the seed game's largest
# hand is 18: 11 dealt, one drawn, two May I?s with two penalty cards each). The meld checker's
# searches grow fast with the cards, so the bound keeps every question quick too.
MAX_CONTRACTS = 10
MAX_MELDS_PER_CONTRACT = 4
MAX_CARDS_HELD = 24


@dataclass(frozen=True, slots=True)
class Setting:
    """One house-rules setting, described for building a form."""

    name: str
    label: str
    kind: str  # "int", "bool", "choice", "int_list", "contracts" or "points"
    help: str
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None


SETTINGS = (
    Setting("min_players", "Fewest players", "int", "The smallest table that can play.", (), 2, 8),
    Setting("max_players", "Most players", "int", "More players need more decks.", (), 2, 8),
    Setting("decks", "Decks", "int", "Standard 52-card decks shuffled together.", (), 1, 4),
    Setting("jokers", "Jokers", "int", "Jokers added to the decks.", (), 0, 8),
    Setting(
        "cards_dealt",
        "Cards dealt",
        "int_list",
        "Cards dealt to each player, one number per contract.",
        (),
        1,
        15,
    ),
    Setting(
        "stock_exhausted",
        "When the stock runs out",
        "choice",
        "What happens when nobody can draw from the stock.",
        (
            ("reshuffle", "Shuffle the discards but the top card into a new stock"),
            ("end_round", "The round ends and everyone scores their hand"),
        ),
    ),
    Setting(
        "contracts",
        "Contracts",
        "contracts",
        "The rounds in order: books, runs and whether the whole hand goes down.",
    ),
    Setting("min_book", "Shortest book", "int", "Fewest cards in a book.", (), 2, 8),
    Setting(
        "book_suits_distinct",
        "Books need different suits",
        "bool",
        "When on, a book may not hold two cards of the same suit.",
    ),
    Setting("min_run", "Shortest run", "int", "Fewest cards in a run.", (), 3, 13),
    Setting(
        "ace",
        "Aces in runs",
        "choice",
        "Where an ace may sit in a run. Runs never wrap around.",
        (
            ("high", "High only (J Q K A)"),
            ("low", "Low only (A 2 3 4)"),
            ("high_or_low", "High or low, not both"),
        ),
    ),
    Setting("jokers_per_meld", "Jokers per meld", "int", "Most jokers in one meld.", (), 0, 4),
    Setting(
        "extra_melds_allowed",
        "Extra melds when going down",
        "bool",
        "When on, a player may lay more melds than the contract asks.",
    ),
    Setting(
        "same_rank_books_banned",
        "No two books of one rank",
        "bool",
        "When on, an initial meld may not hold two books of the same rank.",
    ),
    Setting(
        "same_suit_runs_must_be_separated",
        "Runs of one suit need a gap",
        "bool",
        "When on, two runs of one suit in an initial meld may not be identical, overlap or touch.",
    ),
    Setting(
        "joker_swap",
        "Joker exchange",
        "choice",
        "Whether a melded joker can be replaced by the card it stands for.",
        (
            ("off", "Not allowed"),
            ("shift_to_end", "The card takes the joker's place; the joker moves to an end"),
            ("swap_from_hand", "The card takes the joker's place; the joker goes to the hand"),
        ),
    ),
    Setting(
        "must_discard_to_go_out",
        "Final discard needed",
        "bool",
        "When on, a player can only go out by discarding their last card.",
    ),
    Setting("may_i_limit", "May I? per round", "int", "Out-of-turn takes per round.", (), 0, 5),
    Setting(
        "may_i_penalty_cards",
        "May I? penalty cards",
        "int",
        "Extra cards from the stock taken with each May I?.",
        (),
        0,
        3,
    ),
    Setting(
        "may_i_after_down",
        "May I? after going down",
        "bool",
        "When on, a player who has gone down may still call May I?.",
    ),
    Setting("points", "Penalty points", "points", "Points for each card left in hand."),
    Setting(
        "tie_break",
        "Equal totals",
        "choice",
        "How players with the same total are placed.",
        (
            ("shared", "They share the place"),
            ("most_rounds_won", "Most rounds won goes first"),
            ("fewest_may_i", "Fewest May I?s goes first"),
        ),
    ),
    Setting(
        "shanghai_bonus",
        "Shanghai bonus",
        "int",
        "Points taken off a player's score for each Shanghai claim.",
        (),
        0,
        MAX_POINTS,
    ),
    Setting(
        "rummy_bonus",
        "Bonus for going out in one turn",
        "bool",
        "When on, going out in one turn doubles the others' penalty points.",
    ),
)

CARDS_DEALT = next(setting for setting in SETTINGS if setting.name == "cards_dealt")
