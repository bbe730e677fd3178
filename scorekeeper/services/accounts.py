"""A member's own account: the e-mail address for password resets, and leaving for good."""

from django.contrib.sessions.models import Session
from django.db import transaction

from scorekeeper.models import Club, MemberSession, Membership, Role

from .polls import poll_passes_revoke
from .refusals import ActionRefused, WrongPassword
from .roles import club_lock


@transaction.atomic
def account_email_change(*, user, email: str) -> None:
    """Set (or clear, with "") the address password resets are sent to."""
    user.email = email.strip()
    user.save(update_fields=["email"])


@transaction.atomic
def account_delete(*, user, password: str) -> None:
    """Delete the account once its password confirms it. Finished games stay as they are for
    the other members: they no longer say who recorded what. A club this account is the only
    owner of would be left with nobody able to run it, so that is refused first. Each of its
    clubs is locked, as every change of members is, so two co-owners leaving at once cannot
    both go: the second finds the first gone."""
    if not user.check_password(password):
        raise WrongPassword("That is not your password, so the account was not deleted.")
    # In the clubs' order, as one club at a time is, so two such deletions never deadlock.
    for club_id in user.memberships.order_by("club_id").values_list("club_id", flat=True):
        club_lock(club_id)
    owned = user.memberships.filter(role=Role.OWNER).values("club")
    others = Membership.objects.filter(club__in=owned, role=Role.OWNER).exclude(user=user)
    alone = Club.objects.filter(pk__in=owned).exclude(pk__in=others.values("club"))
    if alone:
        raise ActionRefused(
            f"You are the only owner of {', '.join(club.name for club in alone)}: make another "
            "member an owner first, or nobody could run the club again."
        )
    poll_passes_revoke(
        sessions=MemberSession.objects.filter(user=user).values_list("session_key", flat=True),
        members=user.memberships.values_list("club_id", "user_id"),
    )
    user.delete()


def session_remember(*, user, session_key: str) -> None:
    """Note that `user` signed in with this session (called as Django logs a member in)."""
    MemberSession.objects.get_or_create(session_key=session_key, defaults={"user": user})


@transaction.atomic
def sessions_end_others(*, user, session_key: str) -> int:
    """Sign `user` out of every browser but the one with `session_key` (a phone left at the
    club, a borrowed tablet). Returns how many were signed out."""
    others = MemberSession.objects.filter(user=user).exclude(session_key=session_key)
    keys = list(others.values_list("session_key", flat=True))
    poll_passes_revoke(sessions=keys)
    ended, _ = Session.objects.filter(session_key__in=keys).delete()
    others.delete()
    return ended
