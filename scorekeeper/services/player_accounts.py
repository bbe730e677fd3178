"""A member's "This is me": their account linked to one player of each club, so that the home
page shows their own tables and standings and a stale tap names their player."""

from django.db import transaction
from django.utils.translation import gettext as _

from scorekeeper.models import Player, Role

from .audit import owner_action_record
from .refusals import ActionRefused
from .roles import club_lock, role_require


@transaction.atomic
def player_account_link(*, player: Player, user) -> Player:
    """Link `user`, a member of the player's club, to `player`: "This is me". Their link to
    another player of that club moves here; a player linked to another member is refused (an
    owner unlinks it first)."""
    club_lock(player.club_id)
    role_require(club=player.club_id, user=user, role=Role.VIEWER)
    linked = Player.objects.filter(pk=player.pk).values_list("account_id", flat=True).first()
    if linked not in (None, user.pk):
        raise ActionRefused(
            _("%(player)s is another member already. If that is wrong, an owner can unlink them.")
            % {"player": player}
        )
    Player.objects.filter(club_id=player.club_id, account=user).exclude(pk=player.pk).update(
        account=None
    )
    Player.objects.filter(pk=player.pk).update(account=user)
    player.account = user
    return player


@transaction.atomic
def player_account_unlink(*, player: Player, user) -> Player:
    """Unlink the player's account: "This is not me" from the member linked, or an owner's
    correction (kept in the club's audit trail)."""
    club_lock(player.club_id)
    linked = (
        Player.objects.filter(pk=player.pk).values_list("account_id", "account__username").first()
    )
    if linked is None or linked[0] is None:
        raise ActionRefused(_("%(player)s is no member's player.") % {"player": player})
    account_id, username = linked
    if account_id == getattr(user, "pk", None):
        role_require(club=player.club_id, user=user, role=Role.VIEWER)
    else:
        role_require(club=player.club_id, user=user, role=Role.OWNER)
        summary = _("unlinked {player} from {member}").format(player=player, member=username)
        owner_action_record(club_id=player.club_id, user=user, summary=summary)
    Player.objects.filter(pk=player.pk).update(account=None)
    player.account = None
    return player


def player_accounts_drop(*, club_id: int, user_id: int) -> None:
    """A member who leaves the club, or is taken out of it, is no player of it any more."""
    Player.objects.filter(club_id=club_id, account_id=user_id).update(account=None)
