"""Deleting a player, a rule profile, a season, a table or a whole club: owners only, each in one
transaction, and never at the cost of a finished table. A player who played is retired (kept
for the finished tables, out of the roster), a profile leaves its tables their own copy of the
rules, a season with tables is kept, and a deleted table's results leave the standings with the
later ratings replayed. What each removes is read first by `scorekeeper.selectors.previews`, whose
refusals these services raise in the same words."""

from django.db import transaction
from django.utils.translation import gettext as _

from scorekeeper.models import Club, Game, Photo, Player, Role, Round, RulesProfile, Season
from scorekeeper.selectors import previews

from .audit import owner_action_record
from .photos import photos_drop
from .polls import poll_passes_revoke
from .ratings import ratings_catch_up
from .refusals import ActionRefused
from .roles import club_lock, role_require
from .tallies import TALLIED, tallies_change


def _allowed(preview: previews.DeletionPreview) -> None:
    if preview.refusal:
        raise ActionRefused(preview.refusal)


def _games_drop(games) -> None:
    """Delete tables with their rounds, history, checks, photos (files on commit) and results."""
    photos_drop(Photo.objects.filter(game__in=games))
    # A round names the seat that went out with a protecting key: unhook it, so the table's
    # own seats and rounds can go together.
    Round.objects.filter(game__in=games).update(went_out=None)
    poll_passes_revoke(tables=games.values_list("pk", flat=True))
    games.delete()


@transaction.atomic
def player_delete(*, player: Player, user) -> Player | None:
    """Delete a player who never sat at a table; retire one who did: their finished tables keep
    their name and totals, but the roster and new tables no longer offer them. Returns the
    retired player, or None when the player was deleted outright."""
    role_require(club=player.club_id, user=user, role=Role.OWNER)
    owner_action_record(
        club_id=player.club_id,
        user=user,
        summary=_("deleted player {player}").format(player=player),
    )
    if not player.seats.exists():
        player.delete()
        return None
    player.retired = True
    player.save(update_fields=["retired"])
    return player


@transaction.atomic
def profile_delete(*, profile: RulesProfile, user) -> None:
    """Delete a rule profile; tables started under it keep their own copy of its rules. The
    club's last profile stays: new tables need one."""
    role_require(club=profile.club_id, user=user, role=Role.OWNER)
    _allowed(previews.profile_preview(profile))
    owner_action_record(
        club_id=profile.club_id,
        user=user,
        summary=_("deleted the house rules {profile}").format(profile=profile),
    )
    profile.delete()


@transaction.atomic
def season_delete(*, season: Season, user) -> None:
    """Delete a season no table was played in; one with tables, or the club's last, stays."""
    role_require(club=season.club_id, user=user, role=Role.OWNER)
    _allowed(previews.season_preview(season))
    summary = _("deleted the season {season}").format(season=season)
    owner_action_record(club_id=season.club_id, user=user, summary=summary)
    season.delete()


@transaction.atomic
def game_delete(*, game: Game, user) -> None:
    """Delete a table, in play or finished, with its rounds, history, checks and photos. A
    finished table's results leave the standings, and the ratings of every later table are
    replayed without it (by a worker: `ratings_catch_up`)."""
    role_require(club=game.club_id, user=user, role=Role.OWNER)
    club_lock(game.club_id)
    results = list(game.results.only("finished_at", *TALLIED))
    summary = _("deleted {table}").format(table=game)
    owner_action_record(club_id=game.club_id, user=user, summary=summary)
    _games_drop(Game.objects.filter(pk=game.pk))
    if results:
        tallies_change(removed=results)
        ratings_catch_up(club_id=game.club_id, since=(results[0].finished_at, game.pk))


@transaction.atomic
def club_delete(*, club: Club, user, confirm_name: str) -> None:
    """Delete the club and everything in it, once its name is typed to confirm. The members'
    accounts stay, with their other clubs."""
    role_require(club=club, user=user, role=Role.OWNER)
    if confirm_name.strip() != club.name:
        raise ActionRefused(
            _("Type the club's name, %(name)s, exactly to delete it.") % {"name": club.name}
        )
    club_lock(club.pk)
    _games_drop(Game.objects.filter(club=club))
    club.delete()
