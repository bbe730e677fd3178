"""Roles in the services (scorekeeper/services/roles.py, members.py): whatever view or command
calls a write, the member's role decides; the invite code, roles, removals and leaving keep a
club with an owner."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Membership, Role
from tests.factories import database_state, make_club, make_game, make_user, seats

pytestmark = pytest.mark.django_db


def join(club, role: Role):
    user = make_user()
    Membership.objects.create(club=club, user=user, role=role)
    return user


def test_a_clubs_creator_is_its_owner_and_the_invite_makes_scorers_by_default():
    club = make_club()
    assert club.memberships.get().role == Role.OWNER
    newcomer = make_user()
    services.club_join(user=newcomer, invite_code=club.invite_code)
    assert club.memberships.get(user=newcomer).role == Role.SCORER


def test_an_invite_gives_the_role_the_owner_chose_until_it_expires():
    club = make_club()
    week = timezone.now() + timedelta(days=7)
    services.club_invite_set(club=club, user=club.owner(), role=Role.VIEWER, expires_at=week)
    viewer = make_user()
    services.club_join(user=viewer, invite_code=club.invite_code)
    assert club.memberships.get(user=viewer).role == Role.VIEWER
    past = timezone.now() - timedelta(minutes=1)
    services.club_invite_set(club=club, user=club.owner(), role=Role.SCORER, expires_at=past)
    with pytest.raises(services.ActionRefused, match="expired"):
        services.club_join(user=make_user(), invite_code=club.invite_code)
    assert club.memberships.count() == 2


def test_joining_again_keeps_the_role_a_member_has():
    club = make_club()
    services.club_join(user=club.owner(), invite_code=club.invite_code)
    assert club.memberships.get().role == Role.OWNER


def test_a_new_invite_code_stops_the_old_one():
    club = make_club()
    old = club.invite_code
    services.club_invite_rotate(club=club, user=club.owner())
    assert club.invite_code != old
    with pytest.raises(services.ActionRefused, match="No club has that invite code"):
        services.club_join(user=make_user(), invite_code=old)
    services.club_join(user=make_user(), invite_code=club.invite_code)


def test_an_owner_gives_roles_and_removes_members():
    club = make_club()
    member = club.memberships.get(user=join(club, Role.VIEWER))
    services.member_role_set(membership=member, user=club.owner(), role=Role.OWNER)
    assert Membership.objects.get(pk=member.pk).role == Role.OWNER
    # With two owners, the first may step down, and the second may remove the first.
    first = club.memberships.get(user=club.owner())
    services.member_role_set(membership=first, user=first.user, role=Role.SCORER)
    services.member_remove(membership=first, user=member.user)
    assert list(club.memberships.values_list("user", flat=True)) == [member.user_id]


@pytest.mark.parametrize("change", ["demote", "remove", "leave"])
def test_a_club_always_keeps_an_owner(change):
    club = make_club()
    join(club, Role.SCORER)
    owner = club.memberships.get(role=Role.OWNER)
    before = database_state()
    with pytest.raises(services.ActionRefused, match="only owner"):
        if change == "demote":
            services.member_role_set(membership=owner, user=owner.user, role=Role.VIEWER)
        elif change == "remove":
            services.member_remove(membership=owner, user=owner.user)
        else:
            services.member_leave(club=club, user=owner.user)
    assert database_state() == before


def test_any_member_may_leave_and_an_outsider_is_told_they_are_not_one():
    club = make_club()
    viewer = join(club, Role.VIEWER)
    services.member_leave(club=club, user=viewer)
    assert not club.memberships.filter(user=viewer).exists()
    with pytest.raises(services.ActionRefused, match="not a member"):
        services.member_leave(club=club, user=viewer)


def owner_writes(club, user):
    season = club.seasons.get()
    profile = club.profiles.get()
    member = club.memberships.get(role=Role.OWNER)
    return {
        "season_create": lambda: services.season_create(
            club=club, user=user, name="Spring", starts_on=timezone.localdate()
        ),
        "profile_save": lambda: services.profile_save(
            club=club, user=user, name="Mine", house_rules=profile.house_rules
        ),
        "club_set_time_zone": lambda: services.club_set_time_zone(
            club=club, user=user, time_zone="Asia/Tokyo"
        ),
        "season_close": lambda: services.season_close(season=season, user=user),
        "season_share": lambda: services.season_share(season=season, user=user),
        "season_unshare": lambda: services.season_unshare(season=season, user=user),
        "club_import": lambda: services.club_import(club=club, user=user, document="{}"),
        "club_import_queue": lambda: services.club_import_queue(
            club=club, user=user, document=b"{}"
        ),
        "recount_queue": lambda: services.recount_queue(club=club, user=user),
        "club_invite_set": lambda: services.club_invite_set(
            club=club, user=user, role=Role.SCORER, expires_at=None
        ),
        "club_invite_rotate": lambda: services.club_invite_rotate(club=club, user=user),
        "member_role_set": lambda: services.member_role_set(
            membership=member, user=user, role=Role.VIEWER
        ),
        "member_remove": lambda: services.member_remove(membership=member, user=user),
    }


def scorer_writes(game, user):
    seat = seats(game)[0]
    return {
        "may_i_spend": lambda: services.may_i_spend(
            game=game, version=game.version, seat=seat, user=user
        ),
        "player_create": lambda: services.player_create(club=game.club, user=user, name="Zed"),
        "game_start": lambda: services.game_start(
            club=game.club,
            user=user,
            players=[seat.player for seat in seats(game)],
            first_dealer=0,
            season=game.season,
            profile=game.profile,
        ),
        "tv_link_create": lambda: services.tv_link_create(game=game, user=user),
        "tv_link_revoke": lambda: services.tv_link_revoke(game=game, user=user),
        "action_undo": lambda: services.action_undo(game=game, version=game.version, user=user),
    }


@pytest.mark.parametrize("writer", ["viewer", "scorer", "outsider", "elsewhere", "nobody"])
def test_services_refuse_what_the_role_may_not_do(writer):
    game = make_game(players=3)
    club = game.club
    user = {
        "viewer": join(club, Role.VIEWER),
        "scorer": join(club, Role.SCORER),
        "outsider": make_user(),
        "elsewhere": join(make_club(), Role.OWNER),  # owns another club
        "nobody": None,
    }[writer]
    writes = owner_writes(club, user)
    if writer != "scorer":
        writes |= scorer_writes(game, user)
    before = database_state()
    for name, write in writes.items():
        with pytest.raises(services.RoleRefused, match="Only the club's"):
            write()
        assert database_state() == before, name


def test_scorers_play_the_tables():
    game = make_game(players=3)
    scorer = join(game.club, Role.SCORER)
    for write in scorer_writes(game, scorer).values():
        write()
        game.refresh_from_db()
    assert game.club.players.filter(name="Zed").exists()
    assert game.club.games.count() == 2


def test_the_migration_makes_each_clubs_first_member_its_owner():
    migration = importlib.import_module("scorekeeper.migrations.0009_roles")
    first, second = make_club(), make_club()
    Membership.objects.update(role=Role.SCORER)
    late = join(first, Role.SCORER)
    migration.first_members_own(apps, None)
    assert first.owner() != late
    assert second.memberships.get().role == Role.OWNER
    assert first.memberships.filter(role=Role.OWNER).count() == 1
    assert Membership.objects.get(user=late).role == Role.SCORER
