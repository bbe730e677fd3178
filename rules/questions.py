"""The meld checker's questions, asked of the engine and answered in sentences a player reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from gettext import ngettext

from .cards import Card
from .going_down import check_going_down, find_going_down
from .house_rules import HouseRules
from .lay_off import check_lay_off, shanghai_targets
from .melds import Meld, check_meld


class Question(StrEnum):
    """The questions the meld checker answers: each a short code (kept with every question
    asked at a table) and `label`, the question as a player asks it."""

    label: str

    def __new__(cls, code: str, label: str) -> Question:
        question = str.__new__(cls, code)
        question._value_ = code
        question.label = label
        return question

    MELD = "meld", "Is this a book or a run?"
    GOING_DOWN = "down", "Can I go down?"
    LAY_OFF = "layoff", "Can I lay this off?"
    SHANGHAI = "shanghai", "Is this discard a Shanghai?"
    HINT = "hint", "What could I lay down?"


@dataclass
class Answer:
    """The checker's answer, whatever the question: verdict, reasons, arrangement, targets.

    `gave_up`: the search ran out of steps. Not ok, it is neither yes nor no; ok, the
    going-down shown is legal but may not be the best. `goes_out`: the going-down found ends
    the round, as in a no-discard contract, where going down uses the whole hand.
    """

    ok: bool
    reasons: list[str]
    melds: list[Meld] = field(default_factory=list)
    leftover: list[Card] = field(default_factory=list)
    targets: list[int] = field(default_factory=list)
    gave_up: bool = False
    goes_out: bool = False

    @property
    def text(self) -> str:
        if self.gave_up and not self.ok:
            return " ".join(self.reasons)
        return ("Yes. " if self.ok else "No. ") + " ".join(self.reasons)


def most_cards_asked(
    question: Question, rules: HouseRules, contract: int, *, shanghai_claims: int = 0
) -> int:
    """The most cards a question in round `contract` may be about: what a hand can hold then
    (every May I? and Shanghai card included), or the longest meld the decks allow if that is
    more, for a meld check. The engine's searches grow fast with the cards, so this bounds them.
    """
    most = rules.most_cards_held(contract, shanghai_claims=shanghai_claims)
    if question == Question.MELD:
        most = max(most, rules.most_cards_in_meld)
    return most


def answer_question(
    question: Question,
    melds: list[list[Card]],
    rules: HouseRules,
    *,
    contract: int = 1,
    table_melds: list[list[Card]] = (),
    target: int | None = None,
) -> Answer:
    """Answer one of the checker's questions about cards typed as `melds` (groups split by |).

    Only a going-down keeps the player's groups; every other question is about all the cards at
    once. `table_melds` are the melds on the table, `target` the index of the one to lay off on.
    """
    flat = [card for meld in melds for card in meld]
    if question == Question.SHANGHAI:
        if len(flat) != 1:
            return Answer(ok=False, reasons=["Give the one card that was discarded."])
        targets = shanghai_targets(flat[0], table_melds, rules)
        if targets:
            melds = ngettext("meld", "melds", len(targets))
            reasons = [
                f"{flat[0]} could be laid off on {len(targets)} {melds} on the table: Shanghai!"
            ]
        else:
            reasons = [f"{flat[0]} fits no meld on the table: it is not a Shanghai card."]
        return Answer(ok=bool(targets), reasons=reasons, targets=targets)
    if question == Question.LAY_OFF:
        if target is None or not 0 <= target < len(table_melds):
            return Answer(ok=False, reasons=["Pick the meld on the table to lay off on."])
        verdict = check_lay_off(flat, table_melds[target], rules)
    elif question == Question.GOING_DOWN:
        verdict = check_going_down(contract, melds if len(melds) > 1 else flat, rules)
    elif question == Question.HINT:
        verdict = find_going_down(contract, flat, rules)
    else:
        verdict = check_meld(flat, rules)
    reasons = list(verdict.reasons)
    if verdict.ok and (not reasons or verdict.gave_up):
        # A going-down found before the steps ran out is shown, then what is not known.
        reasons = [meld_sentence(meld) for meld in verdict.melds] + reasons
    # A legal going-down of a no-discard contract holds the whole hand: it is going out.
    goes_out = (
        verdict.ok
        and question in (Question.GOING_DOWN, Question.HINT)
        and rules.contract(contract).no_discard
    )
    if goes_out:
        reasons.append(
            f"Contract {contract} has no discard: going down uses the whole hand, so this hand "
            "goes out."
        )
    return Answer(
        ok=verdict.ok,
        reasons=reasons,
        melds=list(verdict.melds),
        leftover=list(getattr(verdict, "leftover", []) or []),
        gave_up=verdict.gave_up,
        goes_out=goes_out,
    )


def meld_sentence(meld: Meld) -> str:
    """ "7H 8H 9H JK is a run (JK = 10H)": what a legal meld is, and what its jokers stand for."""
    jokers = [f"JK = {card.declared}" for card in meld.cards if card.is_joker and card.declared]
    stands_for = f" ({', '.join(jokers)})" if jokers else ""
    shown = " ".join("JK" if card.is_joker else str(card) for card in meld.cards)
    return f"{shown} is a {meld.kind}{stands_for}."
