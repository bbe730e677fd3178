"""The club's audit trail: what its owners did, in words, as the members page lists it."""

from scorekeeper.models import OwnerAction


def owner_action_record(*, club_id: int, user, summary: str) -> OwnerAction:
    """Write down, in the transaction of the change itself, that `user` `summary` ("made Ben a
    scorer", "deleted table 12 of 3 May")."""
    return OwnerAction.objects.create(club_id=club_id, user=user, summary=summary[:300])
