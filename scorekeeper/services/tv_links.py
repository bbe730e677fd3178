"""TV links: the address that shows a table on a TV without an account."""

from django.db import transaction

from scorekeeper.models import Game, Role, TableLink

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
    TableLink.objects.filter(game=game).delete()
