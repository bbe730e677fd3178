"""Another club's objects (scorekeeper/views/access.py): a 404 on every page and every
write, never a 403 that would confirm they exist, and nothing changed; and one's own club's
objects come in the club's time zone."""

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import ClubImport, Membership, Role
from scorekeeper.views import access
from tests.factories import database_state, member_of, play_round, score_data, seats, stray_photo

pytestmark = pytest.mark.django_db


def their_url(name, stranger):
    photo = stranger.photos.get()
    by_name = {
        "round_edit": [stranger.pk, 1],
        "photo": [photo.pk],
        "photo_delete": [photo.pk],
        "rules_summary": [stranger.club.profiles.first().pk],
        "profile_edit": [stranger.club.profiles.first().pk],
        "club": [stranger.club.pk],
        "player_add": [stranger.club.pk],
        "season_add": [stranger.club.pk],
        "profile_new": [stranger.club.pk],
        "game_new": [stranger.club.pk],
    }
    return reverse(name, args=by_name.get(name, [stranger.pk]))


# Every page and write of an object a club owns, by the method that reaches it.
PAGES = (
    "game history table_check round_edit photo rules_summary profile_edit club profile_new game_new"
)
WRITES = (
    "may_i went_down went_out shanghai score undo score_photo round_edit table_check melds_record"
    " lay_off table_photo photo_delete player_add season_add profile_edit profile_new game_new"
)
OWNED = {"get": PAGES.split(), "post": WRITES.split()}
BY_METHOD = [(method, name) for method, names in OWNED.items() for name in names]


@pytest.mark.parametrize(("method", "name"), BY_METHOD)
def test_another_clubs_objects_are_a_404_and_stay_untouched(client, member, stranger, method, name):
    play_round(stranger, went_out=1, points=[10, 20, 30])
    stranger.refresh_from_db()
    theirs = seats(stranger)
    data = {
        "version": stranger.version,
        "seat": theirs[0].pk,
        "melds": "5C",
        "cards": "5C",
        "question": "meld",
        "name": "Mine now",
        "starts_on": "2025-01-01",
        **score_data(stranger),
    }
    before = database_state()
    response = getattr(client, method)(their_url(name, stranger), data)
    assert response.status_code == 404
    assert database_state() == before


@pytest.mark.parametrize(("method", "name"), BY_METHOD)
def test_anonymous_visitors_are_sent_to_log_in_and_change_nothing(client, stranger, method, name):
    before = database_state()
    response = getattr(client, method)(their_url(name, stranger), {"version": stranger.version})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert database_state() == before


# Each getter of a club's object, and an object of its kind at the `game` fixture's table.
OBJECT_OF = {
    "club_or_404": lambda game: game.club,
    "club_import_or_404": lambda game: ClubImport.objects.create(club=game.club),
    "membership_or_404": lambda game: game.club.memberships.get(),
    "game_or_404": lambda game: game,
    "game_in_play_or_404": lambda game: game,
    "round_in_play_or_404": lambda game: game,
    "profile_or_404": lambda game: game.club.profiles.first(),
    "season_or_404": lambda game: game.season,
    "player_or_404": lambda game: seats(game)[0].player,
    "photo_or_404": stray_photo,
}


def test_every_getter_is_checked_for_the_time_zone():
    getters = {name for name in vars(access) if name.endswith("_or_404")}
    assert set(OBJECT_OF) == {name for name in getters if not name.startswith("_")}


@pytest.mark.parametrize("getter", OBJECT_OF)
def test_every_getter_activates_the_clubs_time_zone(rf, game, getter):
    """So every page of a club, and every write it answers, shows the club's dates and times."""
    owner = member_of(game)
    services.club_set_time_zone(club=game.club, user=owner, time_zone="Pacific/Kiritimati")
    request = rf.get("/")
    request.user = owner
    try:
        getattr(access, getter)(request, OBJECT_OF[getter](game).pk)
        assert timezone.get_current_timezone_name() == "Pacific/Kiritimati"
    finally:
        timezone.deactivate()


@pytest.mark.parametrize(
    ("role", "can_score", "is_owner"),
    [(Role.VIEWER, False, False), (Role.SCORER, True, False), (Role.OWNER, True, True)],
)
def test_a_getter_attaches_what_the_members_role_may_do(rf, game, role, can_score, is_owner):
    membership = game.club.memberships.get()
    Membership.objects.filter(pk=membership.pk).update(role=role)
    request = rf.get("/")
    request.user = membership.user
    found = access.game_or_404(request, game.pk)
    assert (found.access.can_score, found.access.is_owner) == (can_score, is_owner)


# A role compared in a template: `x.member_role != "viewer"`, `role == 'owner'`, `"scorer" in ...`.
ROLE_TEST = re.compile(
    r"""(role\s*(==|!=|in\b)|(==|!=)\s*["'](viewer|scorer|owner)["']|["'](viewer|scorer|owner)["']\s*(==|!=|in\b))"""
)


def test_no_template_decides_with_a_role_string():
    templates = Path(__file__).parents[2] / "templates"
    found = [
        f"{path.relative_to(templates)}:{number}"
        for path in sorted(templates.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if ROLE_TEST.search(line)
    ]
    assert found == [], "ask the access object (can_score, is_owner), not the role"
