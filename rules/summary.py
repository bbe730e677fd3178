"""The house rules in plain words, for the rules page and `python -m rules summary`."""

from __future__ import annotations

from .cards import _number_word
from .house_rules import HouseRules

_ACE_WORDS = {
    "high": "aces are high only (J Q K A, not A 2 3 4)",
    "low": "aces are low only (A 2 3 4, not J Q K A)",
    "high_or_low": "an ace is high or low but never both, and runs never wrap (no K A 2)",
}


def rules_summary(rules: HouseRules) -> list[str]:
    """Plain-English sentences describing the rules, for a printable summary page."""
    word = _number_word
    sentences = [
        f"{word(rules.min_players).capitalize()} to {word(rules.max_players)} players, "
        f"{word(rules.decks)} deck{'s' if rules.decks != 1 else ''} and "
        f"{word(rules.jokers)} joker{'s' if rules.jokers != 1 else ''} "
        f"({52 * rules.decks + rules.jokers} cards).",
    ]
    dealt = set(rules.cards_dealt)
    if len(dealt) == 1:
        sentences.append(f"Each player is dealt {rules.cards_dealt[0]} cards in every round.")
    else:
        sentences.append(
            "Cards dealt per round: " + ", ".join(str(n) for n in rules.cards_dealt) + "."
        )
    sentences.append(
        "When the stock runs out, the discards but the top card are shuffled into a new stock."
        if rules.stock_exhausted == "reshuffle"
        else "When the stock runs out, the round ends and everyone scores their hand."
    )
    contracts = "; ".join(
        f"{number}. {contract.name}" for number, contract in enumerate(rules.contracts, start=1)
    )
    sentences.append(f"The contracts are: {contracts}.")
    distinct = ", all of different suits" if rules.book_suits_distinct else ", any suits"
    sentences.append(f"Books are {word(rules.min_book)} or more cards of one rank{distinct}.")
    sentences.append(
        f"Runs are {word(rules.min_run)} or more cards of one suit in sequence; "
        f"{_ACE_WORDS[rules.ace]}."
    )
    if rules.jokers_per_meld == 0:
        sentences.append("Jokers may not be melded.")
    else:
        sentences.append(
            f"A meld may hold at most {word(rules.jokers_per_meld)} "
            f"joker{'s' if rules.jokers_per_meld != 1 else ''}, and never more jokers than "
            "natural cards."
        )
        sentences.append(
            "A joker in a book stands for the book's rank"
            + (
                ", and for a suit the book lacks"
                if rules.book_suits_distinct
                else ": laying a natural card of that rank is an ordinary lay-off"
            )
            + "; a joker declared by rank alone (JK=9) takes a run's suit."
        )
    sentences.append(
        "Going down, a player may lay extra melds beyond the contract, except in a no-discard "
        "contract, which is always exactly its melds."
        if rules.extra_melds_allowed
        else "Going down, a player lays exactly the contract: no extra melds."
    )
    if rules.same_rank_books_banned:
        sentences.append("An initial meld may not hold two books of the same rank.")
    if rules.same_suit_runs_must_be_separated:
        sentences.append(
            "Two runs of one suit in an initial meld need a gap between them: "
            "no identical, overlapping or touching runs."
        )
    else:
        sentences.append(
            "Two runs of one suit in an initial meld may not be consecutive, but may be "
            "identical or overlap."
        )
    sentences.append(
        {
            "off": "A melded joker cannot be exchanged for the card it stands for.",
            "shift_to_end": "Laying the card a joker stands for in a run moves the joker to an "
            "end of the run.",
            "swap_from_hand": "A player who has gone down may lay the card a joker stands for "
            "and take the joker into their hand.",
        }[rules.joker_swap]
    )
    sentences.append(
        "A player goes out only by discarding their last card."
        if rules.must_discard_to_go_out
        else "A player goes out when their last card leaves their hand; no final discard is needed."
    )
    after = "" if rules.may_i_after_down else ", and not after going down"
    sentences.append(
        f"May I? may be called {word(rules.may_i_limit)} time"
        f"{'s' if rules.may_i_limit != 1 else ''} per round, taking "
        f"{word(rules.may_i_penalty_cards)} penalty card"
        f"{'s' if rules.may_i_penalty_cards != 1 else ''}{after}."
    )
    points = ", ".join(f"{rank} {value}" for rank, value in rules.points)
    sentences.append(f"Penalty points: {points}.")
    sentences.append(
        {
            "shared": "The lowest total wins; equal totals share the place.",
            "most_rounds_won": "The lowest total wins; on equal totals, most rounds won first.",
            "fewest_may_i": "The lowest total wins; on equal totals, fewest May I?s goes first.",
        }[rules.tie_break]
    )
    if rules.shanghai_bonus:
        bonus = rules.shanghai_bonus
        sentences.append(
            f"A Shanghai claim takes {bonus} point{'s' if bonus != 1 else ''} off the claimant."
        )
    if rules.rummy_bonus:
        sentences.append("Going out in one turn doubles the others' penalty points.")
    return sentences
