"""The TV links: the table a live link shows, and a table's link for its page."""

from scorekeeper.models import TV_TOKEN_LENGTH, Game, TableLink


def game_for_tv(token: str) -> Game | None:
    """The table a live TV link shows, with its club; None for any other token."""
    if len(token) != TV_TOKEN_LENGTH:
        return None
    return Game.objects.select_related("club").filter(tv_link__token=token).first()


def tv_link_for(game: Game) -> TableLink | None:
    return TableLink.objects.filter(game=game).first()
