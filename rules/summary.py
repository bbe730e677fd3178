"""The house rules in plain words, for the rules page and `python -m rules summary`."""

from __future__ import annotations

from .cards import _number_word
from .house_rules import HouseRules
from .messages import Message, _, capitalized, joined, ngettext_lazy

_ACE_WORDS = {
    "high": _("aces are high only (J Q K A, not A 2 3 4)"),
    "low": _("aces are low only (A 2 3 4, not J Q K A)"),
    "high_or_low": _("an ace is high or low but never both, and runs never wrap (no K A 2)"),
}


def rules_summary(rules: HouseRules) -> list[Message]:
    """Plain-English sentences describing the rules, for a printable summary page."""
    word = _number_word
    sentences = [
        capitalized(
            _(
                "{fewest} to {most} players, {decks} and {jokers} ({cards} cards).",
                fewest=word(rules.min_players),
                most=word(rules.max_players),
                decks=ngettext_lazy(
                    "one deck", "{count} decks", rules.decks, count=word(rules.decks)
                ),
                jokers=_("no jokers")
                if rules.jokers == 0
                else ngettext_lazy(
                    "one joker", "{count} jokers", rules.jokers, count=word(rules.jokers)
                ),
                cards=52 * rules.decks + rules.jokers,
            )
        ),
    ]
    dealt = set(rules.cards_dealt)
    if len(dealt) == 1:
        sentences.append(
            _("Each player is dealt {count} cards in every round.", count=rules.cards_dealt[0])
        )
    else:
        sentences.append(
            _(
                "Cards dealt per round: {counts}.",
                counts=", ".join(str(n) for n in rules.cards_dealt),
            )
        )
    sentences.append(
        _("When the stock runs out, the discards but the top card are shuffled into a new stock.")
        if rules.stock_exhausted == "reshuffle"
        else _("When the stock runs out, the round ends and everyone scores their hand.")
    )
    contracts = joined(
        "; ",
        (
            joined(". ", [number, contract.name])
            for number, contract in enumerate(rules.contracts, start=1)
        ),
    )
    sentences.append(_("The contracts are: {contracts}.", contracts=contracts))
    if rules.book_suits_distinct:
        books = _(
            "Books are {count} or more cards of one rank, all of different suits.",
            count=word(rules.min_book),
        )
    else:
        books = _(
            "Books are {count} or more cards of one rank, any suits.", count=word(rules.min_book)
        )
    sentences.append(books)
    sentences.append(
        _(
            "Runs are {count} or more cards of one suit in sequence; {aces}.",
            count=word(rules.min_run),
            aces=_ACE_WORDS[rules.ace],
        )
    )
    if rules.jokers_per_meld == 0:
        sentences.append(_("Jokers may not be melded."))
    else:
        sentences.append(
            ngettext_lazy(
                "A meld may hold at most one joker, and never more jokers than natural cards.",
                "A meld may hold at most {count} jokers, and never more jokers than natural cards.",
                rules.jokers_per_meld,
                count=word(rules.jokers_per_meld),
            )
        )
        sentences.append(
            _(
                "A joker in a book stands for the book's rank, and for a suit the book lacks; a "
                "joker declared by rank alone (JK=9) takes a run's suit."
            )
            if rules.book_suits_distinct
            else _(
                "A joker in a book stands for the book's rank: laying a natural card of that rank "
                "is an ordinary lay-off; a joker declared by rank alone (JK=9) takes a run's suit."
            )
        )
    sentences.append(
        _(
            "Going down, a player may lay extra melds beyond the contract, except in a no-discard "
            "contract, which is always exactly its melds."
        )
        if rules.extra_melds_allowed
        else _("Going down, a player lays exactly the contract: no extra melds.")
    )
    if rules.same_rank_books_banned:
        sentences.append(_("An initial meld may not hold two books of the same rank."))
    if rules.same_suit_runs_must_be_separated:
        sentences.append(
            _(
                "Two runs of one suit in an initial meld need a gap between them: "
                "no identical, overlapping or touching runs."
            )
        )
    else:
        sentences.append(
            _(
                "Two runs of one suit in an initial meld may not be consecutive, but may be "
                "identical or overlap."
            )
        )
    sentences.append(
        {
            "off": _("A melded joker cannot be exchanged for the card it stands for."),
            "shift_to_end": _(
                "Laying the card a joker stands for in a run moves the joker to an end of the run."
            ),
            "swap_from_hand": _(
                "A player who has gone down may lay the card a joker stands for and take the "
                "joker into their hand."
            ),
        }[rules.joker_swap]
    )
    sentences.append(
        _("A player goes out only by discarding their last card.")
        if rules.must_discard_to_go_out
        else _(
            "A player goes out when their last card leaves their hand; no final discard is needed."
        )
    )
    # None has words of its own in every language ("ningún", "sin"), so it is a sentence apart.
    times = (
        _("no times")
        if rules.may_i_limit == 0
        else ngettext_lazy(
            "one time", "{count} times", rules.may_i_limit, count=word(rules.may_i_limit)
        )
    )
    penalty = (
        _("no penalty cards")
        if rules.may_i_penalty_cards == 0
        else ngettext_lazy(
            "one penalty card",
            "{count} penalty cards",
            rules.may_i_penalty_cards,
            count=word(rules.may_i_penalty_cards),
        )
    )
    if rules.may_i_after_down:
        may_i = _(
            "May I? may be called {times} per round, taking {penalty}.",
            times=times,
            penalty=penalty,
        )
    else:
        may_i = _(
            "May I? may be called {times} per round, taking {penalty}, and not after going down.",
            times=times,
            penalty=penalty,
        )
    sentences.append(may_i)
    points = ", ".join(f"{rank} {value}" for rank, value in rules.points)
    sentences.append(_("Penalty points: {points}.", points=points))
    sentences.append(
        {
            "shared": _("The lowest total wins; equal totals share the place."),
            "most_rounds_won": _("The lowest total wins; on equal totals, most rounds won first."),
            "fewest_may_i": _("The lowest total wins; on equal totals, fewest May I?s goes first."),
        }[rules.tie_break]
    )
    if rules.shanghai_bonus:
        bonus = rules.shanghai_bonus
        sentences.append(
            ngettext_lazy(
                "A Shanghai claim takes {count} point off the claimant.",
                "A Shanghai claim takes {count} points off the claimant.",
                bonus,
                count=bonus,
            )
        )
    if rules.rummy_bonus:
        sentences.append(_("Going out in one turn doubles the others' penalty points."))
    return sentences
