"""Clubs, their players, seasons and rule profiles, and starting a table."""

from datetime import date

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext, ngettext

import rules
from scorekeeper.models import Club, Game, Membership, Player, Role, RulesProfile, Season, Seat
from scorekeeper.names import NameRefused, name_clean, name_key

from .refusals import ActionRefused
from .roles import role_require
from .tables import round_deal


def _name_checked(*, name: str, model, taken=()) -> str:
    """`name` cleaned by name_clean for `model`'s column, refused when `taken` (the names of the
    club's other rows of that model) already has it, whatever its case: "ann" is the player Ann."""
    try:
        name = name_clean(name, max_length=model._meta.get_field("name").max_length)
    except NameRefused as refusal:
        raise ActionRefused(str(refusal)) from None
    key = name_key(name)
    clash = next((other for other in taken if name_key(other) == key), None)
    if clash is not None:
        raise ActionRefused(
            gettext("There is already a %(kind)s called %(name)s.")
            % {"kind": model._meta.verbose_name, "name": clash}
        )
    return name


def players_cap_words() -> str:
    """The most players a club keeps, as every refusal of one more says it."""
    return gettext("%(count)s players, the most a club keeps") % {
        "count": settings.PLAYERS_PER_CLUB
    }


@transaction.atomic
def club_create(*, user, name: str, time_zone: str | None = None) -> Club:
    """A new club with its creator as owner, the seed rules and a season for this year."""
    name = _name_checked(name=name, model=Club)
    club = Club.objects.create(name=name, time_zone=time_zone or settings.TIME_ZONE)
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    RulesProfile.objects.create(
        club=club, name=gettext(RulesProfile.SEED_NAME), settings=rules.HouseRules().to_dict()
    )
    today = club.today()
    Season.objects.create(club=club, name=str(today.year), starts_on=date(today.year, 1, 1))
    return club


@transaction.atomic
def club_set_time_zone(*, club: Club, user, time_zone: str) -> Club:
    """Show the club's dates and times in `time_zone` (an IANA name the form has checked)."""
    role_require(club=club, user=user, role=Role.OWNER)
    club.time_zone = time_zone
    club.save(update_fields=["time_zone"])
    return club


@transaction.atomic
def club_set_tablet_idle(*, club: Club, user, minutes: int | None) -> Club:
    """Sign the members' browsers out after `minutes` without a page opened or a tap (None:
    only when their session expires). Each browser takes it up within a minute of its next
    action (middleware.tablet_sessions)."""
    role_require(club=club, user=user, role=Role.OWNER)
    club.tablet_idle_minutes = minutes
    club.save(update_fields=["tablet_idle_minutes"])
    return club


@transaction.atomic
def club_join(*, user, invite_code: str) -> Club:
    """Join the club whose invite code this is, in the role its owners chose for newcomers.
    A member who joins again keeps the role they have."""
    club = Club.objects.filter(invite_code=invite_code.strip()).first()
    if club is None:
        raise ActionRefused(
            gettext("No club has that invite code. Check it with a member of the club.")
        )
    if not club.invite_open:
        raise ActionRefused(
            gettext("That invite code has expired. Ask one of the club's owners for a new one.")
        )
    Membership.objects.get_or_create(club=club, user=user, defaults={"role": club.invite_role})
    return club


@transaction.atomic
def player_create(*, club: Club, user, name: str) -> Player:
    """A new player of the club, named uniquely in it (see _name_checked); scorers add players
    as they sit down. The name of a player deleted after playing brings that player back, with
    their record."""
    role_require(club=club, user=user, role=Role.SCORER)
    players = club.players.values_list("pk", "name", "retired")
    playing = [other for _, other, retired in players if not retired]
    name = _name_checked(name=name, model=Player, taken=playing)
    if len(playing) >= settings.PLAYERS_PER_CLUB:
        raise ActionRefused(
            gettext(
                "%(club)s has %(cap)s: delete those who no longer play (on their page) to add new "
                "ones."
            )
            % {"club": club, "cap": players_cap_words()}
        )
    key = name_key(name)
    back = next((pk for pk, other, retired in players if retired and name_key(other) == key), None)
    if back is not None:
        club.players.filter(pk=back).update(retired=False)
        return club.players.get(pk=back)
    return Player.objects.create(club=club, name=name)


@transaction.atomic
def season_create(
    *, club: Club, user, name: str, starts_on: date, ends_on: date | None = None
) -> Season:
    """A new season of the club; `ends_on` (optional) is the first day it is over."""
    role_require(club=club, user=user, role=Role.OWNER)
    name = _name_checked(name=name, model=Season, taken=club.seasons.values_list("name", flat=True))
    if ends_on is not None and ends_on < starts_on:
        raise ActionRefused(gettext("A season cannot end before it starts."))
    return Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)


@transaction.atomic
def profile_save(
    *,
    club: Club,
    user,
    name: str,
    house_rules: rules.HouseRules,
    profile: RulesProfile | None = None,
) -> RulesProfile:
    """Create or update a rule profile. Tables already started keep their own copy of the rules."""
    role_require(club=club, user=user, role=Role.OWNER)
    others = club.profiles.exclude(pk=profile.pk) if profile is not None else club.profiles.all()
    name = _name_checked(name=name, model=RulesProfile, taken=others.values_list("name", flat=True))
    if profile is None:
        profile = RulesProfile(club=club)
    profile.name = name
    profile.settings = house_rules.to_dict()
    profile.save()
    return profile


@transaction.atomic
def game_start(
    *,
    club: Club,
    user,
    players: list[Player],
    first_dealer: int,
    season: Season,
    profile: RulesProfile | None,
    house_rules: rules.HouseRules | None = None,
) -> Game:
    """Seat the players in the order given and deal contract 1, under the profile's rules or
    `house_rules` when given (a table played again keeps its own copy)."""
    role_require(club=club, user=user, role=Role.SCORER)
    house_rules = house_rules or profile.house_rules
    if len(set(players)) != len(players):
        raise ActionRefused(gettext("Each player can sit at the table only once."))
    if not house_rules.min_players <= len(players) <= house_rules.max_players:
        raise ActionRefused(
            gettext("These rules are for %(least)s to %(most)s players; you picked %(picked)s.")
            % {
                "least": house_rules.min_players,
                "most": house_rules.max_players,
                "picked": len(players),
            }
        )
    if not 0 <= first_dealer < len(players):
        raise ActionRefused(gettext("The first dealer must be one of the players at the table."))
    if any(player.club_id != club.pk for player in players) or season.club_id != club.pk:
        raise ActionRefused(gettext("Players and season must belong to this club."))
    retired = [player.name for player in players if player.retired]
    if retired:
        raise ActionRefused(
            ngettext(
                "%(names)s is no longer among the club's players: add them again first.",
                "%(names)s are no longer among the club's players: add them again first.",
                len(retired),
            )
            % {"names": gettext(" and ").join(retired)}
        )
    game = Game.objects.create(
        club=club,
        season=season,
        profile=profile,
        rules=house_rules.to_dict(),
        first_dealer=first_dealer,
        created_by=user,
    )
    seats = Seat.objects.bulk_create(
        Seat(game=game, player=player, position=position) for position, player in enumerate(players)
    )
    round_deal(game=game, number=1, seats=seats)
    return game
