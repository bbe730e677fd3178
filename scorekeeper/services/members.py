"""A club's members: the invite code and what it gives, roles, removing and leaving. Only the
club's owners change these, and a club always keeps an owner."""

from datetime import datetime

from django.db import transaction
from django.utils import dateformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.models import Club, Membership, Role, new_invite_code

from .audit import owner_action_record
from .player_accounts import player_accounts_drop
from .polls import poll_passes_revoke
from .refusals import ActionRefused
from .roles import club_lock, role_require

# The owners' audit trail is written in the acting owner's language (the request's).
_INVITE_MAKES = {
    Role.SCORER: gettext_lazy("let the invite code make scorers"),
    Role.VIEWER: gettext_lazy("let the invite code make viewers"),
}
_INVITE_MAKES_UNTIL = {
    Role.SCORER: gettext_lazy("let the invite code make scorers until {date}"),
    Role.VIEWER: gettext_lazy("let the invite code make viewers until {date}"),
}
_MADE = {
    Role.VIEWER: gettext_lazy("made {member} viewer"),
    Role.SCORER: gettext_lazy("made {member} scorer"),
    Role.OWNER: gettext_lazy("made {member} owner"),
}


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
    if expires_at:
        date = dateformat.format(expires_at, "d M Y H:i")  # the month in the owner's language
        summary = _INVITE_MAKES_UNTIL[Role(role)].format(date=date)
    else:
        summary = str(_INVITE_MAKES[Role(role)])
    owner_action_record(club_id=club.pk, user=user, summary=summary)
    return club


@transaction.atomic
def club_invite_rotate(*, club: Club, user) -> Club:
    """A new invite code: the old one stops working at once; members stay members."""
    role_require(club=club, user=user, role=Role.OWNER)
    club.invite_code = new_invite_code()
    club.save(update_fields=["invite_code"])
    owner_action_record(club_id=club.pk, user=user, summary=_("made a new invite code"))
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
        summary=_MADE[Role(role)].format(member=membership.user),
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
    summary = _("took {member} out of the club").format(member=membership.user)
    owner_action_record(club_id=membership.club_id, user=user, summary=summary)


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
