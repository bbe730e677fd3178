"""A club's members: the invite code and what it gives, roles, removing and leaving. Only the
club's owners change these, and a club always keeps an owner."""

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from scorekeeper.models import Club, Membership, Role, new_invite_code

from .audit import owner_action_record
from .player_accounts import player_accounts_drop
from .polls import poll_passes_revoke
from .refusals import ActionRefused
from .roles import club_lock, role_require


def _owner_stays(membership: Membership, sentence: str) -> None:
    """Refuse, with `sentence`, a change that would leave the club of `membership` ownerless."""
    if membership.role != Role.OWNER:
        return
    owners = Membership.objects.select_for_update().filter(club=membership.club_id, role=Role.OWNER)
    if not owners.exclude(pk=membership.pk).exists():
        raise ActionRefused(sentence)


def _only_owner(membership: Membership) -> str:
    said = _("%(member)s is the club's only owner. Make another member an owner first.")
    return said % {"member": membership.user}


@transaction.atomic
def club_invite_set(*, club: Club, user, role: Role, expires_at: datetime | None) -> Club:
    """What the invite code gives newcomers: `role` (scorer or viewer), until `expires_at`
    (None: no end)."""
    role_require(club=club, user=user, role=Role.OWNER)
    club.invite_role = role
    club.invite_expires_at = expires_at
    club.save(update_fields=["invite_role", "invite_expires_at"])
    until = f" until {expires_at:%d %b %Y %H:%M}" if expires_at else ""
    owner_action_record(
        club_id=club.pk, user=user, summary=f"let the invite code make {club.invite_role}s{until}"
    )
    return club


@transaction.atomic
def club_invite_rotate(*, club: Club, user) -> Club:
    """A new invite code: the old one stops working at once; members stay members."""
    role_require(club=club, user=user, role=Role.OWNER)
    club.invite_code = new_invite_code()
    club.save(update_fields=["invite_code"])
    owner_action_record(club_id=club.pk, user=user, summary="made a new invite code")
    return club


@transaction.atomic
def member_role_set(*, membership: Membership, user, role: Role) -> Membership:
    """Give a member another role; the club's last owner keeps theirs."""
    club_lock(membership.club_id)
    membership.refresh_from_db()  # as it is now that the club is ours
    role_require(club=membership.club_id, user=user, role=Role.OWNER)
    if role != Role.OWNER:
        _owner_stays(membership, _only_owner(membership))
    membership.role = role
    membership.save(update_fields=["role"])
    owner_action_record(
        club_id=membership.club_id,
        user=user,
        summary=f"made {membership.user} {Role(role).value}",
    )
    return membership


@transaction.atomic
def member_remove(*, membership: Membership, user) -> None:
    """Take a member out of the club. Their finished games stay as they are: the players at
    the tables are the club's names, not accounts."""
    club_lock(membership.club_id)
    role_require(club=membership.club_id, user=user, role=Role.OWNER)
    _owner_stays(membership, _only_owner(membership))
    poll_passes_revoke(members=[(membership.club_id, membership.user_id)])
    player_accounts_drop(club_id=membership.club_id, user_id=membership.user_id)
    membership.delete()
    owner_action_record(
        club_id=membership.club_id, user=user, summary=f"took {membership.user} out of the club"
    )


@transaction.atomic
def member_leave(*, club: Club, user) -> None:
    """Leave the club; its only owner must hand the club on first."""
    club_lock(club.pk)
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        raise ActionRefused(_("You are not a member of %(club)s.") % {"club": club})
    said = _("You are the only owner of %(club)s. Make another member an owner first.")
    _owner_stays(membership, said % {"club": club})
    poll_passes_revoke(members=[(membership.club_id, membership.user_id)])
    player_accounts_drop(club_id=membership.club_id, user_id=membership.user_id)
    membership.delete()
