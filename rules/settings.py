"""Every house-rules setting described for a form, and the bounds of what a real table can be:
HouseRules refuses anything outside them, so no form, import or API stores an unplayable game."""

from dataclasses import dataclass

from .cards import JOKER, RANKS
from .messages import gettext_noop

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
    """One house-rules setting, described for building a form: its label, help and choices'
    words are English strings marked for the catalogue, translated where the form shows them."""

    name: str
    label: str
    kind: str  # "int", "bool", "choice", "int_list", "contracts" or "points"
    help: str
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None


SETTINGS = (
    Setting(
        "min_players",
        gettext_noop("Fewest players"),
        "int",
        gettext_noop("The smallest table that can play."),
        (),
        2,
        8,
    ),
    Setting(
        "max_players",
        gettext_noop("Most players"),
        "int",
        gettext_noop("More players need more decks."),
        (),
        2,
        8,
    ),
    Setting(
        "decks",
        gettext_noop("Decks"),
        "int",
        gettext_noop("Standard 52-card decks shuffled together."),
        (),
        1,
        4,
    ),
    Setting(
        "jokers",
        gettext_noop("Jokers"),
        "int",
        gettext_noop("Jokers added to the decks."),
        (),
        0,
        8,
    ),
    Setting(
        "cards_dealt",
        gettext_noop("Cards dealt"),
        "int_list",
        gettext_noop("Cards dealt to each player, one number per contract."),
        (),
        1,
        15,
    ),
    Setting(
        "stock_exhausted",
        gettext_noop("When the stock runs out"),
        "choice",
        gettext_noop("What happens when nobody can draw from the stock."),
        (
            ("reshuffle", gettext_noop("Shuffle the discards but the top card into a new stock")),
            ("end_round", gettext_noop("The round ends and everyone scores their hand")),
        ),
    ),
    Setting(
        "contracts",
        gettext_noop("Contracts"),
        "contracts",
        gettext_noop("The rounds in order: books, runs and whether the whole hand goes down."),
    ),
    Setting(
        "min_book",
        gettext_noop("Shortest book"),
        "int",
        gettext_noop("Fewest cards in a book."),
        (),
        2,
        8,
    ),
    Setting(
        "book_suits_distinct",
        gettext_noop("Books need different suits"),
        "bool",
        gettext_noop("When on, a book may not hold two cards of the same suit."),
    ),
    Setting(
        "min_run",
        gettext_noop("Shortest run"),
        "int",
        gettext_noop("Fewest cards in a run."),
        (),
        3,
        13,
    ),
    Setting(
        "ace",
        gettext_noop("Aces in runs"),
        "choice",
        gettext_noop("Where an ace may sit in a run. Runs never wrap around."),
        (
            ("high", gettext_noop("High only (J Q K A)")),
            ("low", gettext_noop("Low only (A 2 3 4)")),
            ("high_or_low", gettext_noop("High or low, not both")),
        ),
    ),
    Setting(
        "jokers_per_meld",
        gettext_noop("Jokers per meld"),
        "int",
        gettext_noop("Most jokers in one meld."),
        (),
        0,
        4,
    ),
    Setting(
        "extra_melds_allowed",
        gettext_noop("Extra melds when going down"),
        "bool",
        gettext_noop("When on, a player may lay more melds than the contract asks."),
    ),
    Setting(
        "same_rank_books_banned",
        gettext_noop("No two books of one rank"),
        "bool",
        gettext_noop("When on, an initial meld may not hold two books of the same rank."),
    ),
    Setting(
        "same_suit_runs_must_be_separated",
        gettext_noop("Runs of one suit need a gap"),
        "bool",
        gettext_noop(
            "When on, two runs of one suit in an initial meld may not be identical, overlap or "
            "touch."
        ),
    ),
    Setting(
        "joker_swap",
        gettext_noop("Joker exchange"),
        "choice",
        gettext_noop("Whether a melded joker can be replaced by the card it stands for."),
        (
            ("off", gettext_noop("Not allowed")),
            (
                "shift_to_end",
                gettext_noop("The card takes the joker's place; the joker moves to an end"),
            ),
            (
                "swap_from_hand",
                gettext_noop("The card takes the joker's place; the joker goes to the hand"),
            ),
        ),
    ),
    Setting(
        "must_discard_to_go_out",
        gettext_noop("Final discard needed"),
        "bool",
        gettext_noop("When on, a player can only go out by discarding their last card."),
    ),
    Setting(
        "may_i_limit",
        gettext_noop("May I? per round"),
        "int",
        gettext_noop("Out-of-turn takes per round."),
        (),
        0,
        5,
    ),
    Setting(
        "may_i_penalty_cards",
        gettext_noop("May I? penalty cards"),
        "int",
        gettext_noop("Extra cards from the stock taken with each May I?."),
        (),
        0,
        3,
    ),
    Setting(
        "may_i_after_down",
        gettext_noop("May I? after going down"),
        "bool",
        gettext_noop("When on, a player who has gone down may still call May I?."),
    ),
    Setting(
        "points",
        gettext_noop("Penalty points"),
        "points",
        gettext_noop("Points for each card left in hand."),
    ),
    Setting(
        "tie_break",
        gettext_noop("Equal totals"),
        "choice",
        gettext_noop("How players with the same total are placed."),
        (
            ("shared", gettext_noop("They share the place")),
            ("most_rounds_won", gettext_noop("Most rounds won goes first")),
            ("fewest_may_i", gettext_noop("Fewest May I?s goes first")),
        ),
    ),
    Setting(
        "shanghai_bonus",
        gettext_noop("Shanghai bonus"),
        "int",
        gettext_noop("Points taken off a player's score for each Shanghai claim."),
        (),
        0,
        MAX_POINTS,
    ),
    Setting(
        "rummy_bonus",
        gettext_noop("Bonus for going out in one turn"),
        "bool",
        gettext_noop("When on, going out in one turn doubles the others' penalty points."),
    ),
)

CARDS_DEALT = next(setting for setting in SETTINGS if setting.name == "cards_dealt")
