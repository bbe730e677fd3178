"""TV links: the addresses that show a table, or the club's night, on a TV without an account."""

from django.db import transaction

from scorekeeper.models import Club, Game, Role, TableLink, new_tv_token

from .polls import poll_passes_revoke
from .roles import role_require


@transaction.atomic
def tv_link_create(*, game: Game, user) -> TableLink:
    """The table's TV link: the one it has, or a new one. The table's scorers make it."""
    role_require(club=game.club_id, user=user, role=Role.SCORER)
    link, _ = TableLink.objects.get_or_create(game=game, defaults={"created_by": user})
    return link


@transaction.atomic
def tv_link_revoke(*, game: Game, user) -> None:
    """Turn the table's TV link off: its address is a 404 from now on. A new link gets a new
    address, so a screen that had the old one cannot follow the table again."""
    role_require(club=game.club_id, user=user, role=Role.SCORER)
    links = TableLink.objects.filter(game=game)
    poll_passes_revoke(tv_tokens=links.values_list("token", flat=True))
    links.delete()


@transaction.atomic
def club_tv_link_create(*, club: Club, user) -> Club:
    """The club's TV link, for its club night page: the one it has, or a new one. The club's
    scorers make it; it stays the same from one club night to the next until turned off."""
    role_require(club=club, user=user, role=Role.SCORER)
    # Two scorers making it at once get the same link: only the first write finds it unset.
    Club.objects.filter(pk=club.pk, tv_token__isnull=True).update(tv_token=new_tv_token())
    club.tv_token = Club.objects.filter(pk=club.pk).values_list("tv_token", flat=True).get()
    return club


@transaction.atomic
def club_tv_link_revoke(*, club: Club, user) -> Club:
    """Turn the club's TV link off: its address is a 404 from now on, and a new link gets a new
    address."""
    role_require(club=club, user=user, role=Role.SCORER)
    Club.objects.filter(pk=club.pk).update(tv_token=None)
    club.tv_token = None
    return club
