"""Questions asked of the meld checker: answered by the rules engine and, at a table, kept in
the round's history."""

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext

import rules
from scorekeeper.models import Check, Game, Photo, Role, Round, TableMeld
from scorekeeper.rules_words import translated

from .refusals import ActionRefused
from .roles import memberships_allowing, role_require
from .tables import current_round


def check_ask(
    *,
    question: rules.Question,
    cards: list[list[rules.Card]],
    user,
    target: int | None = None,
    house_rules: rules.HouseRules | None = None,
    contract: int = 1,
    table_melds: Sequence[list[rules.Card]] = (),
    game: Game | None = None,
    round_: Round | None = None,
    melds: Sequence[TableMeld] = (),
    photo: Photo | None = None,
) -> rules.Answer:
    """Ask the rules engine `question` about `cards` (as the player grouped them) and return
    its answer; `target` is the index of the meld to lay off on.

    Standalone (no `game`): under `house_rules` in contract `contract`, with `table_melds`
    typed by the player; nothing is kept. At a table: under its rules, in `round_`'s contract,
    with `melds`, the melds on the table; the question and its answer are kept in the round's
    history with the `photo` the cards were read from, or refused with ActionRefused (and
    nothing kept) if the round was scored meanwhile.
    """
    if game is None:
        return rules.answer_question(
            question,
            cards,
            house_rules or rules.HouseRules(),
            contract=contract,
            table_melds=list(table_melds),
            target=target,
        )
    answer = rules.answer_question(
        question,
        cards,
        game.house_rules,
        contract=round_.number,
        table_melds=[meld.card_list for meld in melds],
        target=target,
    )
    _check_record(
        game=game,
        round_=round_,
        question=question,
        cards=rules.format_cards([card for meld in cards for card in meld]),
        target=melds[target] if target is not None else None,
        answer=answer,
        photo=photo,
        user=user,
    )
    return answer


@transaction.atomic
def _check_record(
    *,
    game: Game,
    round_: Round,
    question: rules.Question,
    cards: str,
    target: TableMeld | None,
    answer: rules.Answer,
    photo: Photo | None,
    user,
) -> Check:
    """Keep a question asked at the table about `round_`, and its answer, in the round's
    history, with the photo the cards were read from."""
    # One query says both that the user still scores here and that the round is still being
    # played; when it says no, the role and the game are read apart to say which refusal it is.
    scorer = memberships_allowing(user, Role.SCORER).filter(club=OuterRef("game__club"))
    if not Round.objects.filter(Exists(scorer), pk=round_.pk, finished_at__isnull=True).exists():
        role_require(club=game.club_id, user=user, role=Role.SCORER)
        current_round(game)  # a game over is refused as such
        raise ActionRefused(
            gettext(
                "Contract %(number)s was scored on another tablet a moment ago, so this question "
                "was not kept: ask it again for the contract being played now."
            )
            % {"number": round_.number}
        )
    check = Check.objects.create(
        game=game,
        round=round_,
        question=question,
        cards=cards,
        target=target,
        ok=answer.ok,
        answer=translated(answer.text),
        created_by=user,
    )
    if photo is not None:
        photo.check_asked = check
        photo.save(update_fields=["check_asked"])
    return check
