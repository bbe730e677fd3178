"""Seasons closed, and their standings shared by a link (seasons are created with the clubs), and
the next table of a finished one started."""

import secrets

from django.db import transaction
from django.utils.translation import gettext

import rules
from scorekeeper.models import Game, Role, Season

from .clubs import game_start
from .refusals import ActionRefused
from .roles import role_require


@transaction.atomic
def season_close(*, season: Season, user) -> Season:
    """End the season today, the club's day wherever the server is: it is no longer current,
    and new tables go elsewhere."""
    role_require(club=season.club_id, user=user, role=Role.OWNER)
    today = season.club.today()
    if season.ends_on is not None and season.ends_on <= today:
        raise ActionRefused(gettext("%(season)s has already ended.") % {"season": season})
    if season.starts_on > today:
        raise ActionRefused(
            gettext("%(season)s has not started yet, so it cannot end today.") % {"season": season}
        )
    season.ends_on = today
    season.save(update_fields=["ends_on"])
    return season


@transaction.atomic
def season_share(*, season: Season, user) -> Season:
    """Open the season's standings to anyone with a new unguessable link (an old one stops)."""
    role_require(club=season.club_id, user=user, role=Role.OWNER)
    season.share_token = secrets.token_urlsafe(32)
    season.save(update_fields=["share_token"])
    return season


@transaction.atomic
def season_unshare(*, season: Season, user) -> Season:
    """Revoke the season's read-only link: it stops working at once."""
    role_require(club=season.club_id, user=user, role=Role.OWNER)
    season.share_token = None
    season.save(update_fields=["share_token"])
    return season


def game_play_again(*, game: Game, user) -> Game:
    """A new table for a finished one: the same players in the same seats, the same rules and
    season, and the first deal moved on one seat."""
    if game.finished_at is None:
        raise ActionRefused(
            gettext("This table is still being played: finish it before playing again.")
        )
    seats = list(game.seats.select_related("player"))
    return game_start(
        club=game.club,
        user=user,
        players=[seat.player for seat in seats],
        first_dealer=rules.next_table_first_dealer(game.first_dealer, len(seats)),
        season=game.season,
        profile=game.profile,
        house_rules=game.house_rules,
    )
