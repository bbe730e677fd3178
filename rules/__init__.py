"""Shanghai Rummy rules engine: pure Python, no Django, no I/O."""

from .cards import (
    JOKER,
    RANKS,
    SUIT_SYMBOL,
    SUITS,
    Card,
    CardError,
    card_problems,
    cards_written,
    format_cards,
    format_melds,
    parse_cards,
    parse_melds,
    parse_ranks,
    rank_spellings,
)
from .contracts import CONTRACTS, Contract, RulesError
from .deal import dealer_seat, first_player_seat, next_table_first_dealer
from .going_down import check_going_down, find_going_down
from .house_rules import HouseRules
from .lay_off import check_lay_off, shanghai_targets
from .melds import Meld, Verdict, check_meld
from .messages import Message
from .questions import Answer, Question, answer_question, meld_sentence, most_cards_asked
from .scoring import (
    HandEntry,
    down_after_correction,
    hand_problems,
    held_refusal,
    penalty_points,
    points_possible,
    points_refusal,
    round_scores,
)
from .settings import MAX_CARDS_HELD, MAX_CONTRACTS, MAX_MELDS_PER_CONTRACT, MAX_POINTS, SETTINGS
from .summary import rules_summary
from .turns import in_one_turn_refusal, may_i_refusal, shanghai_claim_refusal
from .variants import VARIANTS, Variant, variant

__all__ = [
    "Answer",
    "Question",
    "answer_question",
    "meld_sentence",
    "most_cards_asked",
    "CONTRACTS",
    "JOKER",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOL",
    "MAX_CARDS_HELD",
    "MAX_CONTRACTS",
    "MAX_MELDS_PER_CONTRACT",
    "MAX_POINTS",
    "SETTINGS",
    "Card",
    "CardError",
    "Contract",
    "HandEntry",
    "HouseRules",
    "Meld",
    "Message",
    "RulesError",
    "Variant",
    "VARIANTS",
    "Verdict",
    "card_problems",
    "cards_written",
    "check_going_down",
    "check_lay_off",
    "check_meld",
    "dealer_seat",
    "down_after_correction",
    "find_going_down",
    "first_player_seat",
    "format_cards",
    "format_melds",
    "hand_problems",
    "held_refusal",
    "in_one_turn_refusal",
    "may_i_refusal",
    "shanghai_claim_refusal",
    "next_table_first_dealer",
    "parse_cards",
    "parse_melds",
    "parse_ranks",
    "rank_spellings",
    "penalty_points",
    "points_possible",
    "points_refusal",
    "round_scores",
    "rules_summary",
    "shanghai_targets",
    "variant",
]
