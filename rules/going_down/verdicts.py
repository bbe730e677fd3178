"""Going down: checking an initial meld, and finding the best one in a hand, with the reasons
when there is none. The search itself is in search.py."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ..cards import RANK_PLURAL, RANK_VALUE, SUIT_NAME, Card
from ..contracts import Contract, RulesError
from ..house_rules import HouseRules
from ..melds import (
    DEFAULT_RULES,
    Meld,
    Verdict,
    check_meld,
    describe,
    input_refusal,
    listed_cards,
    meld_options,
    refuse,
)
from ..messages import Message, _, and_joined, ngettext_lazy
from ..scoring import penalty_points
from .budget import Budget
from .plans import build
from .search import Search

# What a player reads when a search runs out of steps: never a "no" that was not proven.
TOO_MANY_TO_CHECK = _(
    "Too many possibilities to try every arrangement of these cards: separate the melds you "
    "have in mind with | and ask again."
)
TOO_MANY_TO_LIST = _(
    "Too many possibilities to list: type the melds you have in mind and ask whether they go down."
)
MAYBE_BETTER = _(
    "Too many possibilities to compare them all: this going-down is legal, but another may "
    "lay down more points."
)


def _conflict_reason(melds: list[Meld], rules: HouseRules) -> Message | None:
    """A sentence for the first initial-meld rule these melds break together, or None."""
    for i, first in enumerate(melds):
        for second in melds[i + 1 :]:
            if first.kind != second.kind:
                continue
            pair = and_joined([str(first), str(second)])
            if first.kind == "book":
                if rules.same_rank_books_banned and first.rank == second.rank:
                    return _(
                        "{melds} are two books of {ranks}: an initial meld may hold only one "
                        "book of each rank.",
                        melds=pair,
                        ranks=RANK_PLURAL[first.rank],
                    )
                continue
            if first.suit != second.suit:
                continue
            (a, b), (c, d) = first.span, second.span
            suit = SUIT_NAME[first.suit]
            if rules.same_suit_runs_must_be_separated:
                if not (b + 1 < c or d + 1 < a):
                    return _(
                        "{melds} are runs of {suit} with no gap between them: these rules "
                        "need a gap between two runs of one suit in an initial meld.",
                        melds=pair,
                        suit=suit,
                    )
            elif b + 1 == c or d + 1 == a:
                return _(
                    "{melds} are consecutive runs of {suit}: they cannot go down together "
                    "(there must be a gap).",
                    melds=pair,
                    suit=suit,
                )
    return None


def _contract_of(contract: int, rules: HouseRules) -> Contract:
    return rules.contract(contract)


def _needs(contract: Contract) -> Message:
    """ "2 books", "1 book and 1 run": the melds of a contract, counted."""
    parts = []
    if contract.books:
        parts.append(
            ngettext_lazy("{count} book", "{count} books", contract.books, count=contract.books)
        )
    if contract.runs:
        parts.append(
            ngettext_lazy("{count} run", "{count} runs", contract.runs, count=contract.runs)
        )
    return and_joined(parts)


def _contract_named(number: int, contract: Contract) -> Message:
    """ "Contract 1 (Two books)"."""
    return _("Contract {number} ({name})", number=number, name=contract.name)


def _held_joker(rest: list[Card], laid: Card) -> Card:
    """The hand's joker that `laid` is: the one declared as that card, else one declared by its
    rank alone, else an undeclared one (a joker declared as another card never moves)."""
    rank = laid.declared.rank if laid.declared else None
    for fits in (
        lambda held: held == laid,
        lambda held: (
            held.declared is not None and held.declared.suit is None and held.declared.rank == rank
        ),
        lambda held: held.declared is None,
    ):
        match = next((held for held in rest if held.is_joker and fits(held)), None)
        if match is not None:
            return match
    raise AssertionError(f"{laid} is none of the hand's jokers")


def _leftover(hand: list[Card], melds: list[Meld]) -> list[Card]:
    rest = list(hand)
    for meld in melds:
        for card in meld.cards:
            rest.remove(_held_joker(rest, card) if card.is_joker else card)
    return rest


def _solve(
    hand: list[Card], contract: Contract, rules: HouseRules, cover: bool, budget: Budget
) -> Verdict:
    search = Search(hand, contract, rules, cover, budget)
    plans = search.run()
    if plans is None:
        return Verdict(False, gave_up=search.gave_up)
    melds = [build(plan, rules) for plan in plans]
    melds.sort(key=_meld_order)
    shed = sum(penalty_points(meld.cards, rules) for meld in melds)
    return Verdict(
        True,
        melds=melds,
        leftover=_leftover(hand, melds),
        points_shed=shed,
        gave_up=search.gave_up,
    )


def _meld_order(meld: Meld) -> tuple:
    if meld.kind == "book":
        return (0, RANK_VALUE[meld.rank], "")
    return (1, meld.span[0], meld.suit or "")


def _flatten(cards_or_melds: Sequence) -> tuple[list[Card], list[list[Card]] | None]:
    items = list(cards_or_melds)
    if items and all(isinstance(item, list | tuple) for item in items):
        groups = [list(item) for item in items]
        return [card for group in groups for card in group], groups
    return items, None


def check_going_down(
    contract: int,
    cards_or_melds: Sequence,
    rules: HouseRules = DEFAULT_RULES,
    *,
    budget: Budget | None = None,
) -> Verdict:
    """Is this a legal initial meld for contract number `contract` (counting from 1)?

    A list of lists is checked as grouped melds; a flat list of cards must be arranged, all
    of it, into the contract's melds (for a no-discard contract, the flat list is the whole
    hand). Same-rank books and consecutive same-suit runs are refused only after every joker
    assignment has been tried. When arranging the cards takes more than the budget's steps,
    the verdict gives up (`gave_up`, not ok) and asks for the melds one by one.
    """
    budget = Budget() if budget is None else budget
    try:
        wanted = _contract_of(contract, rules)
    except RulesError as error:
        return refuse(error.args[0])
    try:
        cards, groups = _flatten(cards_or_melds)
    except TypeError:
        return refuse(_("Expected a list of cards or a list of melds."))
    refusal = input_refusal(cards, rules)
    if refusal is not None:
        return refusal
    if not cards:
        return refuse(
            _(
                "No cards were given: contract {number} needs {melds}.",
                number=contract,
                melds=_needs(wanted),
            )
        )
    if groups is not None:
        return _check_grouped(contract, wanted, groups, rules)
    verdict = _solve(cards, wanted, rules, cover=True, budget=budget)
    if verdict.ok:
        return verdict
    if verdict.gave_up:
        return Verdict(False, [TOO_MANY_TO_CHECK], gave_up=True)
    return refuse(*_cover_reasons(contract, wanted, cards, rules, budget))


def _check_grouped(
    number: int, contract: Contract, groups: list[list[Card]], rules: HouseRules
) -> Verdict:
    reasons = []
    options = []
    for group in groups:
        readings = meld_options(group, rules)
        if not readings:
            reasons.append(check_meld(group, rules).reasons[0])
        options.append(readings)
    if reasons:
        return refuse(*reasons)
    extra_allowed = rules.extra_melds_allowed and not contract.no_discard
    first_conflict = None
    for choice in product(*options):
        books = sum(1 for meld in choice if meld.kind == "book")
        runs = len(choice) - books
        if extra_allowed:
            if books < contract.books or runs < contract.runs:
                continue
        elif (books, runs) != (contract.books, contract.runs):
            continue
        conflict = _conflict_reason(list(choice), rules)
        if conflict is None:
            melds = list(choice)
            shed = sum(penalty_points(meld.cards, rules) for meld in melds)
            return Verdict(True, melds=melds, points_shed=shed)
        first_conflict = first_conflict or conflict
    if first_conflict:
        return refuse(first_conflict)
    kinds = [reading[0].kind for reading in options]
    laid = _needs(Contract(kinds.count("book"), kinds.count("run")))
    if extra_allowed:
        return refuse(
            _(
                "{contract} needs at least {melds}; these melds are {laid}.",
                contract=_contract_named(number, contract),
                melds=_needs(contract),
                laid=laid,
            )
        )
    return refuse(
        _(
            "{contract} needs {melds}; these melds are {laid}.",
            contract=_contract_named(number, contract),
            melds=_needs(contract),
            laid=laid,
        )
    )


def _cover_reasons(
    number: int, contract: Contract, cards: list[Card], rules: HouseRules, budget: Budget
) -> list:
    """Why these cards make no going-down. A search that runs out of steps here only leaves
    out the sentence it was for."""
    name = _contract_named(number, contract)
    needed = contract.books * rules.min_book + contract.runs * rules.min_run
    if len(cards) < needed:
        return [
            _(
                "{contract} needs at least {needed} cards; {count} were given.",
                contract=name,
                needed=needed,
                count=len(cards),
            )
        ]
    relaxed = Search(cards, contract, rules, cover=True, budget=budget).run(enforce=False)
    if relaxed is not None:
        melds = [build(plan, rules) for plan in relaxed]
        reason = _conflict_reason(melds, rules)
        if reason:
            return [reason]
    reasons = [
        _(
            "{cards} cannot be laid out as {melds} using every card.",
            cards=describe(cards),
            melds=_needs(contract),
        )
    ]
    best = _solve(cards, contract, rules, cover=False, budget=budget)
    if best.ok and best.leftover and not best.gave_up:
        layout = " | ".join(str(meld) for meld in best.melds)
        reasons.append(
            _(
                "{cards} does not fit: the closest is {layout}.",
                cards=describe(best.leftover),
                layout=layout,
            )
        )
    return reasons


def find_going_down(
    contract: int,
    hand: Sequence[Card],
    rules: HouseRules = DEFAULT_RULES,
    *,
    budget: Budget | None = None,
) -> Verdict:
    """The legal going-down in this hand that sheds the most penalty points.

    The verdict's melds are the ones to lay, `leftover` the cards kept and `points_shed` the
    points laid down. For a no-discard contract the whole hand must be used. When no going
    down exists, the reasons say what is missing. When the search takes more than the
    budget's steps, the verdict gives up (`gave_up`): ok with the best going-down found so
    far and a reason saying a better one may exist, or not ok when none was found yet.
    """
    budget = Budget() if budget is None else budget
    try:
        wanted = _contract_of(contract, rules)
    except RulesError as error:
        return refuse(error.args[0])
    hand = listed_cards(hand, rules)
    if isinstance(hand, Verdict):
        return hand
    verdict = _solve(hand, wanted, rules, cover=wanted.no_discard, budget=budget)
    if verdict.ok:
        if verdict.gave_up:
            verdict.reasons = [MAYBE_BETTER]
        return verdict
    if verdict.gave_up:
        return Verdict(False, [TOO_MANY_TO_LIST], gave_up=True)
    return refuse(*_missing_reasons(contract, wanted, hand, rules, budget))


def _missing_reasons(
    number: int, contract: Contract, hand: list[Card], rules: HouseRules, budget: Budget
) -> list:
    """What the hand lacks for the contract. A search that runs out of steps here only leaves
    out the sentence it was for."""
    name = _contract_named(number, contract)
    if contract.no_discard:
        reasons = [
            _(
                "{contract} must use the whole hand, and this hand cannot make {melds}.",
                contract=name,
                melds=_needs(contract),
            )
        ]
    else:
        reasons = [
            _(
                "This hand cannot go down for {contract}: it needs {melds}.",
                contract=name,
                melds=_needs(contract),
            )
        ]
    relaxed = Search(hand, contract, rules, cover=contract.no_discard, budget=budget).run(
        enforce=False
    )
    if relaxed is not None:
        reason = _conflict_reason([build(plan, rules) for plan in relaxed], rules)
        if reason:
            reasons.append(reason)
            return reasons
    books = _most(hand, rules, "book", contract.books, budget)
    runs = _most(hand, rules, "run", contract.runs, budget)
    if books is None or runs is None:
        pass  # how many it holds was not worked out
    elif books < contract.books or runs < contract.runs:
        if books or runs:
            reasons.append(_("It holds at most {melds}.", melds=_needs(Contract(books, runs))))
        else:
            reasons.append(_("It holds no book or run."))
    elif not contract.no_discard:
        reasons.append(_("Its books and runs need the same cards."))
    if rules.must_discard_to_go_out and not contract.no_discard:
        reasons.append(_("A card must be kept back to discard."))
    return reasons


def _most(
    hand: list[Card], rules: HouseRules, kind: str, wanted: int, budget: Budget
) -> int | None:
    """How many books (or runs) the hand can make together, up to `wanted`; None when the
    budget ran out before that was known."""
    best = 0
    for count in range(1, wanted + 1):
        contract = Contract(count, 0) if kind == "book" else Contract(0, count)
        search = Search(hand, contract, rules, cover=False, budget=budget)
        search.keep_one = False
        search.extra = False
        search.first_only = True  # only whether one exists
        found = search.run(enforce=True)
        if search.gave_up:
            return None
        if found is None:
            break
        best = count
    return best
