"""Shanghai Rummy rules engine: pure Python, no Django, no I/O."""

from .cards import (
    Card,
    CardError,
    card_problems,
    format_cards,
    format_melds,
    parse_cards,
    parse_melds,
    parse_ranks,
)
from .house_rules import CONTRACTS, SETTINGS, Contract, HouseRules, RulesError, rules_summary
from .melds import Meld, Verdict, check_lay_off, check_meld, shanghai_targets

__all__ = [
    "CONTRACTS",
    "SETTINGS",
    "Card",
    "CardError",
    "Contract",
    "HouseRules",
    "Meld",
    "RulesError",
    "Verdict",
    "card_problems",
    "check_lay_off",
    "check_meld",
    "format_cards",
    "format_melds",
    "parse_cards",
    "parse_melds",
    "parse_ranks",
    "rules_summary",
    "shanghai_targets",
]
