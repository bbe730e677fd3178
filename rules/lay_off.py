"""Laying off on table melds, joker exchanges, and which discards are Shanghai cards."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import JOKER, RANK_PLURAL, SUIT_NAME, Card, CardError
from .house_rules import HouseRules
from .melds import (
    DEFAULT_RULES,
    Meld,
    Verdict,
    describe,
    explain,
    input_refusal,
    joker_for,
    joker_limit,
    meld_options,
    refuse,
    slot_rank,
)
from .messages import Message, _


def _table_readings(meld: Sequence[Card], rules: HouseRules) -> list[Meld]:
    return meld_options(meld, rules)


def _grown_from(result: Meld, table: Meld) -> bool:
    """True when `result` holds the table run unchanged, with new cards only at its ends."""
    low, high = result.span
    table_low, table_high = table.span
    if table_low < low or table_high > high:
        return False
    offset = table_low - low
    return result.cards[offset : offset + len(table.cards)] == table.cards


def check_lay_off(
    cards: Sequence[Card],
    meld: Sequence[Card],
    rules: HouseRules = DEFAULT_RULES,
    *,
    joker_end: str | None = None,
    exchange: bool = True,
) -> Verdict:
    """Can these cards be laid off on this table meld? The grown meld is in verdict.melds.

    Runs grow at their ends only, up to the ace; the joker limit holds. Laying the card a
    joker stands for is a joker exchange, allowed only by the `joker_swap` setting (and only
    when `exchange` is true): with "shift_to_end" the joker moves to an end of the run
    (`joker_end` "low" or "high" to choose, else whichever has room, high first); with
    "swap_from_hand" the joker leaves the meld and is returned in verdict.leftover.
    """
    try:
        cards, meld = list(cards), list(meld)
    except TypeError:
        return refuse(_("Expected a list of cards and a meld."))
    refusal = input_refusal(cards + meld, rules)
    if refusal is not None:
        return refusal
    if not cards:
        return refuse(_("No cards were given to lay off."))
    readings = _table_readings(meld, rules)
    if not readings:
        return refuse(
            _("The meld on the table is not legal: {reason}", reason=explain(meld, rules))
        )
    name = describe(cards)
    exchange_reason = None
    for table in readings:
        natural = _joker_card_laid(cards, table, rules)
        if natural is None or table.kind == "book":
            for result in meld_options(meld + cards, rules):
                if result.kind != table.kind:
                    continue
                if table.kind == "run" and not _grown_from(result, table):
                    continue
                return Verdict(True, melds=[result])
        if natural is not None:
            verdict = _exchange(cards, table, natural, rules, joker_end, exchange)
            if verdict.ok:
                return verdict
            exchange_reason = exchange_reason or verdict.reasons[0]
    if exchange_reason:
        return refuse(exchange_reason)
    return refuse(_lay_off_reason(cards, meld, readings[0], rules, name))


def _joker_card_laid(cards: list[Card], table: Meld, rules: HouseRules) -> Card | None:
    """The first natural card laid that a joker of the table meld stands for, or None.

    In a run the joker's card is fixed. In a book the joker stands for the rank, so laying a
    card of the rank is an ordinary lay-off, unless suits must differ: then the joker stands for
    the suit it was declared with, or for any suit the book's natural cards lack."""
    jokers = [card.declared for card in table.cards if card.is_joker]
    if table.kind == "book":
        if not rules.book_suits_distinct:
            return None
        held = {card.suit for card in table.cards if not card.is_joker}
        for card in cards:
            if card.is_joker or card.rank != table.rank:
                continue
            if card in jokers or (card.suit not in held and Card(table.rank, None) in jokers):
                return card
        return None
    return next((card for card in cards if not card.is_joker and card in jokers), None)


def _exchange(
    cards: list[Card],
    table: Meld,
    natural: Card,
    rules: HouseRules,
    joker_end: str | None,
    allowed: bool,
) -> Verdict:
    if rules.joker_swap == "off" or not allowed:
        return refuse(
            _(
                "{card} cannot be laid off: the joker in {meld} stands for {card}, and these "
                "rules do not allow a joker exchange.",
                card=str(natural),
                meld=str(table),
            )
        )
    if rules.joker_swap == "shift_to_end" and table.kind == "book":
        return refuse(
            _(
                "{card} cannot take the joker's place in {meld}: these rules move a joker "
                "only along a run.",
                card=str(natural),
                meld=str(table),
            )
        )
    index = next(
        (i for i, card in enumerate(table.cards) if card.declared == natural),
        next(i for i, card in enumerate(table.cards) if card.is_joker),
    )
    row = list(table.cards)
    row[index] = natural
    rest = list(cards)
    rest.remove(natural)
    if rules.joker_swap == "swap_from_hand":
        swapped = Meld(table.kind, tuple(row))
        grown = [
            result
            for result in meld_options(list(row) + rest, rules)
            if result.kind == table.kind and (table.kind != "run" or _grown_from(result, swapped))
        ]
        if not grown:
            return refuse(
                _("{cards} cannot be laid off on {meld}.", cards=describe(cards), meld=str(table))
            )
        return Verdict(True, melds=[grown[0]], leftover=[Card(JOKER, None)])
    low, high = table.span
    swapped = Meld(table.kind, tuple(row))
    ends = {"high": [high + 1], "low": [low - 1]}.get(joker_end or "", [high + 1, low - 1])
    suit = table.suit
    for position in ends:
        if not 1 <= position <= 14:
            continue
        moved = joker_for(slot_rank(position), suit)
        for result in meld_options(list(row) + [moved] + rest, rules):
            if result.kind == "run" and _grown_from(result, swapped):
                return Verdict(True, melds=[result])
    if joker_end:
        return refuse(
            _(
                "{card} cannot take the joker's place in {meld}: the run has no room at that "
                "end for the joker.",
                card=str(natural),
                meld=str(table),
            )
        )
    return refuse(
        _(
            "{card} cannot take the joker's place in {meld}: the run has no room at either "
            "end for the joker.",
            card=str(natural),
            meld=str(table),
        )
    )


def _lay_off_reason(
    cards: list[Card], meld: list[Card], table: Meld, rules: HouseRules, name: str
) -> Message:
    combined_jokers = sum(1 for card in cards + meld if card.is_joker)

    def refusal(why: Message) -> Message:
        return _(
            "{cards} cannot be laid off on {meld}: {why}", cards=name, meld=str(table), why=why
        )

    if combined_jokers > rules.jokers_per_meld:
        return refusal(
            _("a meld may hold at most {limit}.", limit=joker_limit(rules.jokers_per_meld))
        )
    if table.kind == "book":
        return refusal(_("a book takes only {ranks}.", ranks=RANK_PLURAL[table.rank]))
    low, high = table.span
    naturals = [card for card in cards if not card.is_joker]
    if any(card.suit != table.suit for card in naturals):
        return refusal(_("a run takes only {suit}.", suit=SUIT_NAME[table.suit]))
    if len(cards) + len(meld) > 13 or (low <= 2 and high >= 13 and rules.ace != "high_or_low"):
        return refusal(_("the run is already complete."))
    inside = [card for card in naturals if low <= card.value <= high]
    if inside:
        return refusal(_("a run grows at its ends only."))
    if any(card.rank == "A" for card in naturals) or high == 14 or low == 1:
        return refusal(_("a run stops at the ace and does not wrap."))
    return refusal(_("the cards must continue the run at an end."))


def shanghai_targets(
    discard: Card, table_melds: Sequence[Sequence[Card]], rules: HouseRules = DEFAULT_RULES
) -> list[int]:
    """Indexes of the table melds this discard could be laid off on (empty: not a Shanghai card).

    A joker exchange counts only with joker_swap "shift_to_end", where the joker stays on the
    table; taking a joker into the hand is not a lay-off.
    """
    exchange = rules.joker_swap == "shift_to_end"
    targets = []
    for index, meld in enumerate(table_melds):
        try:
            verdict = check_lay_off([discard], meld, rules, exchange=exchange)
        except CardError:
            continue
        if verdict.ok:
            targets.append(index)
    return targets
