"""House rules: every setting of RULES.md, validated as a whole."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from gettext import ngettext
from typing import Any

from .cards import JOKER, RANKS
from .contracts import CONTRACTS, Contract, RulesError

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

STOCK_EXHAUSTED_CHOICES = ("reshuffle", "end_round")
ACE_CHOICES = ("high", "low", "high_or_low")
JOKER_SWAP_CHOICES = ("off", "shift_to_end", "swap_from_hand")
TIE_BREAK_CHOICES = ("shared", "most_rounds_won", "fewest_may_i")


@dataclass(frozen=True, slots=True)
class Setting:
    """One house-rules setting, described for building a form."""

    name: str
    label: str
    kind: str  # "int", "bool", "choice", "int_list", "contracts" or "points"
    help: str
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int = 1000


SETTINGS = (
    Setting("min_players", "Fewest players", "int", "The smallest table that can play.", (), 2),
    Setting("max_players", "Most players", "int", "More players need more decks.", (), 2),
    Setting("decks", "Decks", "int", "Standard 52-card decks shuffled together.", (), 1),
    Setting("jokers", "Jokers", "int", "Jokers added to the decks.", (), 0),
    Setting(
        "cards_dealt",
        "Cards dealt",
        "int_list",
        "Cards dealt to each player, one number per contract.",
        (),
        1,
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
    Setting("min_book", "Shortest book", "int", "Fewest cards in a book.", (), 2),
    Setting(
        "book_suits_distinct",
        "Books need different suits",
        "bool",
        "When on, a book may not hold two cards of the same suit.",
    ),
    Setting("min_run", "Shortest run", "int", "Fewest cards in a run.", (), 3),
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
    Setting("jokers_per_meld", "Jokers per meld", "int", "Most jokers in one meld.", (), 0),
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
    Setting("may_i_limit", "May I? per round", "int", "Out-of-turn takes per round.", (), 0),
    Setting(
        "may_i_penalty_cards",
        "May I? penalty cards",
        "int",
        "Extra cards from the stock taken with each May I?.",
        (),
        0,
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
    ),
    Setting(
        "rummy_bonus",
        "Bonus for going out in one turn",
        "bool",
        "When on, going out in one turn doubles the others' penalty points.",
    ),
)


def _default_points() -> tuple[tuple[str, int], ...]:
    return DEFAULT_POINTS


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Every setting of RULES.md; HouseRules() is the seed game. Immutable and hashable."""

    min_players: int = 3
    max_players: int = 5
    decks: int = 2
    jokers: int = 4
    cards_dealt: tuple[int, ...] = (11,) * 7
    stock_exhausted: str = "reshuffle"
    contracts: tuple[Contract, ...] = CONTRACTS
    min_book: int = 3
    book_suits_distinct: bool = False
    min_run: int = 4
    ace: str = "high"
    jokers_per_meld: int = 1
    extra_melds_allowed: bool = False
    same_rank_books_banned: bool = True
    same_suit_runs_must_be_separated: bool = False
    joker_swap: str = "off"
    must_discard_to_go_out: bool = False
    may_i_limit: int = 2
    may_i_penalty_cards: int = 2
    may_i_after_down: bool = True
    points: tuple[tuple[str, int], ...] = field(default_factory=_default_points)
    tie_break: str = "shared"
    shanghai_bonus: int = 0
    rummy_bonus: bool = False

    def __post_init__(self) -> None:
        set_field = object.__setattr__
        # Friendly inputs become the canonical hashable forms.
        if isinstance(self.cards_dealt, int) and not isinstance(self.cards_dealt, bool):
            set_field(self, "cards_dealt", (self.cards_dealt,) * len(tuple(self.contracts)))
        if isinstance(self.cards_dealt, list | tuple):
            set_field(self, "cards_dealt", tuple(self.cards_dealt))
        if not isinstance(self.cards_dealt, tuple):
            raise RulesError("Cards dealt must be a list of whole numbers, one per contract.")
        if not isinstance(self.contracts, list | tuple):
            raise RulesError("Contracts must be a list of contracts.")
        set_field(self, "contracts", tuple(_contract(item) for item in self.contracts))
        set_field(self, "points", _points(self.points))
        _validate(self)

    def point_value(self, rank: str) -> int:
        """Penalty points of one card of this rank ("JK" for a joker)."""
        return dict(self.points)[rank]

    def contract(self, number: int) -> Contract:
        """The contract of round `number`, counting from 1."""
        if not isinstance(number, int) or not 1 <= number <= len(self.contracts):
            raise RulesError(
                f"There is no contract {number}: these rules have contracts 1 to "
                f"{len(self.contracts)}."
            )
        return self.contracts[number - 1]

    def most_cards_held(self, number: int, *, shanghai_claims: int = 0) -> int:
        """The most cards a hand can hold in round `number`: the deal, one drawn card, every
        May I? with its penalty cards, and one card drawn by the discarder per Shanghai claim."""
        self.contract(number)  # refuses a round these rules do not have
        dealt = self.cards_dealt[number - 1]
        return dealt + 1 + self.may_i_limit * (1 + self.may_i_penalty_cards) + shanghai_claims

    @property
    def most_cards_in_meld(self) -> int:
        """The longest meld the decks allow: every copy of a rank and its jokers, or 2 to A."""
        return max(13, 4 * self.decks + self.jokers_per_meld)

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-able dict of every setting."""
        result: dict[str, Any] = {}
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name == "contracts":
                value = [
                    {"books": c.books, "runs": c.runs, "no_discard": c.no_discard} for c in value
                ]
            elif item.name == "points":
                value = dict(value)
            elif item.name == "cards_dealt":
                value = list(value)
            result[item.name] = value
        return result

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> HouseRules:
        """Build rules from a dict like to_dict's output.

        Missing keys take their defaults; unknown keys are refused with RulesError.
        """
        if not isinstance(values, Mapping):
            raise RulesError("House rules must be given as a mapping of setting names to values.")
        known = {item.name for item in fields(cls)}
        unknown = sorted(str(key) for key in values if key not in known)
        if unknown:
            raise RulesError(f"Unknown house-rules setting: {', '.join(unknown)}.")
        values = dict(values)
        if "contracts" in values and "cards_dealt" not in values:
            contracts = values["contracts"]
            if isinstance(contracts, list | tuple):
                values["cards_dealt"] = (11,) * len(contracts)
        return cls(**values)


def _contract(item: Any) -> Contract:
    if isinstance(item, Contract):
        return item
    if isinstance(item, Mapping):
        unknown = set(item) - {"books", "runs", "no_discard"}
        if unknown:
            raise RulesError(f"Unknown contract field: {', '.join(sorted(map(str, unknown)))}.")
        return Contract(item.get("books", 0), item.get("runs", 0), item.get("no_discard", False))
    if isinstance(item, list | tuple) and len(item) in (2, 3):
        return Contract(*item)
    raise RulesError(f"{item!r} is not a contract: give books, runs and no_discard.")


def _points(value: Any) -> tuple[tuple[str, int], ...]:
    if isinstance(value, Mapping):
        pairs = dict(value)
    elif isinstance(value, list | tuple):
        try:
            pairs = dict(value)
        except (TypeError, ValueError):
            raise RulesError("Points must map each rank to a number of points.") from None
    else:
        raise RulesError("Points must map each rank to a number of points.")
    unknown = sorted(str(rank) for rank in pairs if rank not in POINT_RANKS)
    if unknown:
        raise RulesError(
            f"Points name unknown ranks ({', '.join(unknown)}): ranks are 2-10, J, Q, K, A and JK."
        )
    defaults = dict(DEFAULT_POINTS)
    return tuple((rank, pairs.get(rank, defaults[rank])) for rank in POINT_RANKS)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(rules: HouseRules) -> None:
    for setting in SETTINGS:
        value = getattr(rules, setting.name)
        if setting.kind == "int":
            if not _is_int(value):
                raise RulesError(f"{setting.label} must be a whole number, not {value!r}.")
            if setting.minimum is not None and value < setting.minimum:
                raise RulesError(f"{setting.label} must be at least {setting.minimum}.")
            if value > setting.maximum:
                raise RulesError(f"{setting.label} must be at most {setting.maximum}.")
        elif setting.kind == "bool":
            if not isinstance(value, bool):
                raise RulesError(f"{setting.label} must be on or off, not {value!r}.")
        elif setting.kind == "choice":
            names = [choice for choice, _ in setting.choices]
            if value not in names:
                raise RulesError(
                    f"{setting.label} must be one of {', '.join(names)}, not {value!r}."
                )
    if rules.min_players > rules.max_players:
        raise RulesError("The fewest players cannot be more than the most players.")
    if rules.book_suits_distinct and rules.min_book > 4:
        raise RulesError("A book of different suits cannot be longer than four cards.")
    if rules.min_book > 4 * rules.decks:
        raise RulesError(
            f"A book of {rules.min_book} cards is impossible with {rules.decks} "
            + ngettext("deck", "decks", rules.decks)
            + "."
        )
    if rules.min_run > 13:
        raise RulesError("A run cannot be longer than 13 cards.")
    if not rules.contracts:
        raise RulesError("The contract list cannot be empty.")
    for number, contract in enumerate(rules.contracts, start=1):
        if not (_is_int(contract.books) and _is_int(contract.runs)):
            raise RulesError(f"Contract {number} needs whole numbers of books and runs.")
        if not isinstance(contract.no_discard, bool):
            raise RulesError(f"Contract {number}: no discard must be on or off.")
        if contract.books < 0 or contract.runs < 0 or contract.books + contract.runs == 0:
            raise RulesError(f"Contract {number} must ask for at least one book or run.")
    if len(rules.cards_dealt) != len(rules.contracts):
        raise RulesError(
            f"Cards dealt needs one number per contract: {len(rules.contracts)} contracts "
            f"but {len(rules.cards_dealt)} numbers."
        )
    for number, dealt in enumerate(rules.cards_dealt, start=1):
        if not _is_int(dealt) or dealt < 1:
            raise RulesError(f"Cards dealt for contract {number} must be a whole number above 0.")
    for number, (contract, dealt) in enumerate(
        zip(rules.contracts, rules.cards_dealt, strict=True), start=1
    ):
        needed = contract.books * rules.min_book + contract.runs * rules.min_run
        # After drawing, and every May I? allowed, a player holds this many; one kept back to
        # discard does not count.
        held = (
            dealt
            + 1
            + rules.may_i_limit * (1 + rules.may_i_penalty_cards)
            - (rules.must_discard_to_go_out and not contract.no_discard)
        )
        if needed > held:
            raise RulesError(
                f"Contract {number} ({contract.name}) needs at least {needed} cards, "
                f"but a player holds at most {held} when going down."
            )
    for rank, value in rules.points:
        if not _is_int(value) or not 0 <= value <= MAX_POINTS:
            raise RulesError(f"Points for {rank} must be a whole number from 0 to {MAX_POINTS}.")
    total = 52 * rules.decks + rules.jokers
    dealt = rules.max_players * max(rules.cards_dealt)
    if total < dealt + 2:
        raise RulesError(
            f"{total} cards are too few to deal {max(rules.cards_dealt)} to "
            f"{rules.max_players} players and keep a stock: add a deck or deal fewer cards."
        )
