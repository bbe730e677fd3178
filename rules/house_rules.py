"""House rules: every setting of docs/rules.md, validated as a whole."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .contracts import CONTRACTS, Contract, RulesError
from .messages import _, as_message, ngettext_lazy
from .settings import (
    CARDS_DEALT,
    DEFAULT_POINTS,
    MAX_CARDS_HELD,
    MAX_CONTRACTS,
    MAX_MELDS_PER_CONTRACT,
    MAX_POINTS,
    POINT_RANKS,
    SETTINGS,
)


def _default_points() -> tuple[tuple[str, int], ...]:
    return DEFAULT_POINTS


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Every setting of docs/rules.md; HouseRules() is the seed game. Immutable and hashable."""

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
            raise RulesError(_("Cards dealt must be a list of whole numbers, one per contract."))
        if not isinstance(self.contracts, list | tuple):
            raise RulesError(_("Contracts must be a list of contracts."))
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
                _(
                    "There is no contract {number}: these rules have contracts 1 to {count}.",
                    number=number,
                    count=len(self.contracts),
                )
            )
        return self.contracts[number - 1]

    def most_cards_held(self, number: int, *, shanghai_claims: int = 0) -> int:
        """The most cards a hand can hold in round `number`: the deal, one drawn card, every
        May I? with its penalty cards, and one card drawn by the discarder per Shanghai claim."""
        self.contract(number)  # refuses a round these rules do not have
        dealt = self.cards_dealt[number - 1]
        return dealt + 1 + self.may_i_limit * (1 + self.may_i_penalty_cards) + shanghai_claims

    def most_cards_left(
        self, number: int, *, may_i_used: int = 0, discards_claimed: int = 0
    ) -> int:
        """The most cards a player can be left holding when someone goes out in round
        `number`, so the most a hand can be scored with: the deal, the card and penalty cards of
        each May I? the player called, and a card for each of their discards claimed by a
        Shanghai (its discarder draws one in its place)."""
        self.contract(number)  # refuses a round these rules do not have
        dealt = self.cards_dealt[number - 1]
        return dealt + (1 + self.may_i_penalty_cards) * may_i_used + discards_claimed

    def cards_left_usually(
        self, number: int, *, may_i_used: int = 0, shanghai_claims: int = 0, cards_down: int = 0
    ) -> int:
        """How many cards a player is usually left holding when someone goes out in round
        `number`: the deal, the card and penalty cards of each May I? the player called, less a
        card for each Shanghai claim they made (the discarder draws it from their hand) and the
        cards they put down from their hand (`cards_down`: the melds they went down with and what
        they laid off). Cards drawn back when their own discard was claimed are not known here:
        the player says so."""
        self.contract(number)  # refuses a round these rules do not have
        dealt = self.cards_dealt[number - 1]
        held = dealt + (1 + self.may_i_penalty_cards) * may_i_used - shanghai_claims - cards_down
        return max(held, 0)

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
            raise RulesError(
                _("House rules must be given as a mapping of setting names to values.")
            )
        known = {item.name for item in fields(cls)}
        unknown = sorted(str(key) for key in values if key not in known)
        if unknown:
            raise RulesError(_("Unknown house-rules setting: {names}.", names=", ".join(unknown)))
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
            raise RulesError(
                _("Unknown contract field: {names}.", names=", ".join(sorted(map(str, unknown))))
            )
        return Contract(item.get("books", 0), item.get("runs", 0), item.get("no_discard", False))
    if isinstance(item, list | tuple) and len(item) in (2, 3):
        return Contract(*item)
    raise RulesError(
        _("{item} is not a contract: give books, runs and no_discard.", item=repr(item))
    )


def _points(value: Any) -> tuple[tuple[str, int], ...]:
    if isinstance(value, Mapping):
        pairs = dict(value)
    elif isinstance(value, list | tuple):
        try:
            pairs = dict(value)
        except (TypeError, ValueError):
            raise RulesError(_("Points must map each rank to a number of points.")) from None
    else:
        raise RulesError(_("Points must map each rank to a number of points."))
    unknown = sorted(str(rank) for rank in pairs if rank not in POINT_RANKS)
    if unknown:
        raise RulesError(
            _(
                "Points name unknown ranks ({ranks}): ranks are 2-10, J, Q, K, A and JK.",
                ranks=", ".join(unknown),
            )
        )
    defaults = dict(DEFAULT_POINTS)
    return tuple((rank, pairs.get(rank, defaults[rank])) for rank in POINT_RANKS)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(rules: HouseRules) -> None:
    for setting in SETTINGS:
        value = getattr(rules, setting.name)
        label = as_message(setting.label)
        if setting.kind == "int":
            if not _is_int(value):
                raise RulesError(
                    _(
                        "{setting} must be a whole number, not {value}.",
                        setting=label,
                        value=repr(value),
                    )
                )
            if setting.minimum is not None and value < setting.minimum:
                raise RulesError(
                    _(
                        "{setting} must be at least {minimum}.",
                        setting=label,
                        minimum=setting.minimum,
                    )
                )
            if setting.maximum is not None and value > setting.maximum:
                raise RulesError(
                    _(
                        "{setting} must be at most {maximum}.",
                        setting=label,
                        maximum=setting.maximum,
                    )
                )
        elif setting.kind == "bool":
            if not isinstance(value, bool):
                raise RulesError(
                    _("{setting} must be on or off, not {value}.", setting=label, value=repr(value))
                )
        elif setting.kind == "choice":
            names = [choice for choice, _label in setting.choices]
            if value not in names:
                raise RulesError(
                    _(
                        "{setting} must be one of {names}, not {value}.",
                        setting=label,
                        names=", ".join(names),
                        value=repr(value),
                    )
                )
    if rules.min_players > rules.max_players:
        raise RulesError(_("The fewest players cannot be more than the most players."))
    if rules.book_suits_distinct and rules.min_book > 4:
        raise RulesError(_("A book of different suits cannot be longer than four cards."))
    if rules.min_book > 4 * rules.decks:
        raise RulesError(
            ngettext_lazy(
                "A book of {size} cards is impossible with {count} deck.",
                "A book of {size} cards is impossible with {count} decks.",
                rules.decks,
                size=rules.min_book,
                count=rules.decks,
            )
        )
    if not rules.contracts:
        raise RulesError(_("The contract list cannot be empty."))
    if len(rules.contracts) > MAX_CONTRACTS:
        raise RulesError(
            _(
                "A game can have at most {most} contracts; these rules have {count}.",
                most=MAX_CONTRACTS,
                count=len(rules.contracts),
            )
        )
    for number, contract in enumerate(rules.contracts, start=1):
        if not (_is_int(contract.books) and _is_int(contract.runs)):
            raise RulesError(
                _("Contract {number} needs whole numbers of books and runs.", number=number)
            )
        if not isinstance(contract.no_discard, bool):
            raise RulesError(_("Contract {number}: no discard must be on or off.", number=number))
        if contract.books < 0 or contract.runs < 0 or contract.books + contract.runs == 0:
            raise RulesError(
                _("Contract {number} must ask for at least one book or run.", number=number)
            )
        if contract.books + contract.runs > MAX_MELDS_PER_CONTRACT:
            raise RulesError(
                _(
                    "Contract {number} asks for {count} melds; a contract can ask for at most "
                    "{most}.",
                    number=number,
                    count=contract.books + contract.runs,
                    most=MAX_MELDS_PER_CONTRACT,
                )
            )
    if len(rules.cards_dealt) != len(rules.contracts):
        raise RulesError(
            _(
                "Cards dealt needs one number per contract: {contracts} contracts but {numbers} "
                "numbers.",
                contracts=len(rules.contracts),
                numbers=len(rules.cards_dealt),
            )
        )
    for number, dealt in enumerate(rules.cards_dealt, start=1):
        if not _is_int(dealt) or dealt < 1:
            raise RulesError(
                _(
                    "Cards dealt for contract {number} must be a whole number above 0.",
                    number=number,
                )
            )
        if dealt > CARDS_DEALT.maximum:
            raise RulesError(
                _(
                    "Cards dealt for contract {number} can be at most {most}.",
                    number=number,
                    most=CARDS_DEALT.maximum,
                )
            )
    held = rules.most_cards_held(rules.cards_dealt.index(max(rules.cards_dealt)) + 1)
    if held > MAX_CARDS_HELD:
        raise RulesError(
            _(
                "A player could hold {held} cards (the deal, a drawn card and every May I? with "
                "its penalty cards): at most {most} can be held in a hand.",
                held=held,
                most=MAX_CARDS_HELD,
            )
        )
    for number, contract in enumerate(rules.contracts, start=1):
        needed = contract.books * rules.min_book + contract.runs * rules.min_run
        # One card kept back to discard does not count.
        held = rules.most_cards_held(number) - (
            rules.must_discard_to_go_out and not contract.no_discard
        )
        if needed > held:
            raise RulesError(
                _(
                    "Contract {number} ({name}) needs at least {needed} cards, but a player "
                    "holds at most {held} when going down.",
                    number=number,
                    name=contract.name,
                    needed=needed,
                    held=held,
                )
            )
    for rank, value in rules.points:
        if not _is_int(value) or not 0 <= value <= MAX_POINTS:
            raise RulesError(
                _(
                    "Points for {rank} must be a whole number from 0 to {most}.",
                    rank=rank,
                    most=MAX_POINTS,
                )
            )
    total = 52 * rules.decks + rules.jokers
    dealt = rules.max_players * max(rules.cards_dealt)
    if total < dealt + 2:
        raise RulesError(
            _(
                "{total} cards are too few to deal {dealt} to {players} players and keep a "
                "stock: add a deck or deal fewer cards.",
                total=total,
                dealt=max(rules.cards_dealt),
                players=rules.max_players,
            )
        )
