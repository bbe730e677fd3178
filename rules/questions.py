"""The meld checker's questions, asked of the engine and answered in sentences a player reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .cards import Card
from .going_down import check_going_down, find_going_down
from .house_rules import HouseRules
from .lay_off import check_lay_off, shanghai_targets
from .melds import Meld, check_meld
from .messages import Message, _, gettext_noop, joined, ngettext_lazy


class Question(StrEnum):
    """The questions the meld checker answers: each a short code (kept with every question
    asked at a table) and `label`, the question as a player asks it (English, marked for the
    catalogue)."""

    label: str

    def __new__(cls, code: str, label: str) -> Question:
        question = str.__new__(cls, code)
        question._value_ = code
        question.label = label
        return question

    MELD = "meld", gettext_noop("Is this a book or a run?")
    GOING_DOWN = "down", gettext_noop("Can I go down?")
    LAY_OFF = "layoff", gettext_noop("Can I lay this off?")
    SHANGHAI = "shanghai", gettext_noop("Is this discard a Shanghai?")
    HINT = "hint", gettext_noop("What could I lay down?")


@dataclass
class Answer:
    """The checker's answer, whatever the question: verdict, reasons, arrangement, targets.

    `gave_up`: the search ran out of steps. Not ok, it is neither yes nor no; ok, the
    going-down shown is legal but may not be the best. `goes_out`: the going-down found ends
    the round, as in a no-discard contract, where going down uses the whole hand.
    """

    ok: bool
    reasons: list[Message]
    melds: list[Meld] = field(default_factory=list)
    leftover: list[Card] = field(default_factory=list)
    targets: list[int] = field(default_factory=list)
    gave_up: bool = False
    goes_out: bool = False

    @property
    def text(self) -> Message:
        """The answer in one paragraph: yes or no, then the reasons."""
        reasons = joined(" ", self.reasons)
        if self.gave_up and not self.ok:
            return reasons
        if self.ok:
            return _("Yes. {reasons}", reasons=reasons)
        return _("No. {reasons}", reasons=reasons)


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
            return Answer(ok=False, reasons=[_("Give the one card that was discarded.")])
        targets = shanghai_targets(flat[0], table_melds, rules)
        if targets:
            reasons = [
                ngettext_lazy(
                    "{card} could be laid off on {count} meld on the table: Shanghai!",
                    "{card} could be laid off on {count} melds on the table: Shanghai!",
                    len(targets),
                    card=str(flat[0]),
                    count=len(targets),
                )
            ]
        else:
            reasons = [
                _(
                    "{card} fits no meld on the table: it is not a Shanghai card.",
                    card=str(flat[0]),
                )
            ]
        return Answer(ok=bool(targets), reasons=reasons, targets=targets)
    if question == Question.LAY_OFF:
        if target is None or not 0 <= target < len(table_melds):
            return Answer(ok=False, reasons=[_("Pick the meld on the table to lay off on.")])
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
            _(
                "Contract {number} has no discard: going down uses the whole hand, so this hand "
                "goes out.",
                number=contract,
            )
        )
    return Answer(
        ok=verdict.ok,
        reasons=reasons,
        melds=list(verdict.melds),
        leftover=list(getattr(verdict, "leftover", []) or []),
        gave_up=verdict.gave_up,
        goes_out=goes_out,
    )


def meld_sentence(meld: Meld) -> Message:
    """ "7H 8H 9H JK is a run (JK = 10H)": what a legal meld is, and what its jokers stand for."""
    jokers = [f"JK = {card.declared}" for card in meld.cards if card.is_joker and card.declared]
    shown = " ".join("JK" if card.is_joker else str(card) for card in meld.cards)
    stands_for = ", ".join(jokers)
    if meld.kind == "book":
        if jokers:
            return _("{cards} is a book ({jokers}).", cards=shown, jokers=stands_for)
        return _("{cards} is a book.", cards=shown)
    if jokers:
        return _("{cards} is a run ({jokers}).", cards=shown, jokers=stands_for)
    return _("{cards} is a run.", cards=shown)
