"""A member's own account: the e-mail address for password resets, and leaving for good."""

from django.db import transaction

from scorekeeper.models import Club

from .refusals import ActionRefused


@transaction.atomic
def account_email_change(*, user, email: str) -> None:
    """Set (or clear, with "") the address password resets are sent to."""
    user.email = email.strip()
    user.save(update_fields=["email"])


@transaction.atomic
def account_delete(*, user, password: str) -> None:
    """Delete the account once its password confirms it. Finished games stay as they are for
    the other members: they no longer say who recorded what. A club this account is the only
    member of would be left with nobody able to open it, so that is refused first."""
    if not user.check_password(password):
        raise ActionRefused("That is not your password, so the account was not deleted.")
    alone = [club.name for club in Club.objects.for_user(user) if club.memberships.count() == 1]
    if alone:
        raise ActionRefused(
            f"You are the only member of {', '.join(alone)}: give someone the invite code "
            "first, or nobody could open the club again."
        )
    user.delete()
