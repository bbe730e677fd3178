"""Writes about seasons: creating and closing them, sharing their standings by a link, and
starting the next table of a finished one."""

import secrets
from datetime import date

from django.db import transaction
from django.utils import timezone

from .models import Club, Game, Season
from .services import ActionRefused, game_start


@transaction.atomic
def season_create(*, club: Club, name: str, starts_on: date, ends_on: date | None = None) -> Season:
    """A new season of the club; `ends_on` (optional) is the first day it is over."""
    if club.seasons.filter(name=name).exists():
        raise ActionRefused(f"{club} already has a season called {name}.")
    if ends_on is not None and ends_on < starts_on:
        raise ActionRefused("A season cannot end before it starts.")
    return Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)


@transaction.atomic
def season_close(*, season: Season) -> Season:
    """End the season today: it is no longer current, and new tables go elsewhere."""
    today = timezone.localdate()
    if season.ends_on is not None and season.ends_on <= today:
        raise ActionRefused(f"{season} has already ended.")
    if season.starts_on > today:
        raise ActionRefused(f"{season} has not started yet, so it cannot end today.")
    season.ends_on = today
    season.save(update_fields=["ends_on"])
    return season


@transaction.atomic
def season_share(*, season: Season) -> Season:
    """Open the season's standings to anyone with a new unguessable link (an old one stops)."""
    season.share_token = secrets.token_urlsafe(32)
    season.save(update_fields=["share_token"])
    return season


@transaction.atomic
def season_unshare(*, season: Season) -> Season:
    """Revoke the season's read-only link: it stops working at once."""
    season.share_token = None
    season.save(update_fields=["share_token"])
    return season


def game_play_again(*, game: Game, user) -> Game:
    """A new table for a finished one: the same players in the same seats, the same rules and
    season, and the first deal moved on one seat."""
    if game.finished_at is None:
        raise ActionRefused("This table is still being played: finish it before playing again.")
    seats = list(game.seats.select_related("player"))
    return game_start(
        club=game.club,
        user=user,
        players=[seat.player for seat in seats],
        first_dealer=(game.first_dealer + 1) % len(seats),
        season=game.season,
        profile=game.profile,
        house_rules=game.house_rules,
    )
