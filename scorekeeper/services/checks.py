"""Questions asked of the meld checker at a table, kept in the round's history."""

from django.db import transaction

from scorekeeper.models import Check, Game, Photo, Role, Round

from .refusals import ActionRefused
from .roles import role_require
from .tables import current_round


@transaction.atomic
def check_record(
    *,
    game: Game,
    round_: Round,
    question: str,
    cards: str,
    target,
    answer,
    user,
    photo: Photo | None = None,
) -> Check:
    """Keep a question asked at the table about `round_`, and the checker's answer, in the
    round's history, with the photo the cards were read from."""
    role_require(club=game.club_id, user=user, role=Role.SCORER)
    if current_round(game).pk != round_.pk:
        raise ActionRefused(
            f"Contract {round_.number} was scored on another tablet a moment ago, so this "
            "question was not kept: ask it again for the contract being played now."
        )
    check = Check.objects.create(
        game=game,
        round=round_,
        question=question,
        cards=cards,
        target=target,
        ok=answer.ok,
        answer=answer.text,
        created_by=user,
    )
    if photo is not None:
        photo.check_asked = check
        photo.save(update_fields=["check_asked"])
    return check


# Photos
