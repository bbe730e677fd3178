"""Who may do what in a club. Every write checks the member's role here, whatever view or command
calls it: viewers read; scorers also play the tables; owners also run the club."""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import Club, Membership, Role

# What a member whose role is too low is told, by the role the write needs.
REFUSED = {
    Role.VIEWER: _("Only the club's members may do that."),
    Role.SCORER: _("Only the club's scorers and owners may do that."),
    Role.OWNER: _("Only the club's owners may do that."),
}


class RoleRefused(PermissionDenied):
    """The member's role does not allow this; the 403 page shows the reason."""


def role_check(member_role: str | None, role: Role) -> None:
    """Refuse unless `member_role` (None: not a member) allows what `role` may do."""
    if member_role is None or not Role(member_role).allows(role):
        raise RoleRefused(str(REFUSED[role]))


def role_require(*, club: Club | int, user, role: Role) -> None:
    """Refuse unless `user` is a member of `club` whose role allows what `role` may do."""
    member_role = None
    if user is not None and user.is_authenticated:
        club_id = club if isinstance(club, int) else club.pk
        memberships = Membership.objects.filter(club_id=club_id, user=user)
        member_role = memberships.values_list("role", flat=True).first()
    role_check(member_role, role)


def memberships_allowing(user, role: Role):
    """The user's memberships whose role allows what `role` may do (none for nobody), for a
    write to check the role in its own query."""
    allowed = [member_role for member_role in Role if member_role.allows(role)]
    return Membership.objects.filter(user_id=getattr(user, "pk", None), role__in=allowed)


def club_lock(club_id: int) -> None:
    """Take the club's row for the rest of the transaction: changes to who runs the club (roles,
    members, deletions, a ratings replay) then happen one at a time, in one order, so two owners
    demoting each other at once never deadlock: the second finds the first done."""
    list(Club.objects.select_for_update().filter(pk=club_id).values_list("pk"))
