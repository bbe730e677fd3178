"""Every URL pattern, walked with every role, an outsider and an anonymous visitor, by GET and by
POST, against one table of who may do what. An endpoint added without a row fails the first
test; a refused request must change nothing."""

from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scorekeeper import services
from scorekeeper.actions import TAPS
from scorekeeper.models import ClubImport, ImportStatus, Membership, Role
from scorekeeper.uploads import UploadedPhoto
from tests.factories import (
    built_once,
    database_state,
    make_game,
    make_user,
    play_round,
    stray_photo,
)

# slow: every endpoint as every kind of visitor.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# A real photo of cards (tests/recognition/photos/ATTRIBUTION.md), for the photo's address to serve.
JPEG = (Path(__file__).parents[1] / "recognition" / "photos" / "phone_010.jpg").read_bytes()

# Who may use each endpoint, by GET and by POST: a role of the club that owns the object the URL
# names ("viewer", "scorer", "owner"); "signed-in" for anyone with an account (nothing of a club);
# "anyone" with no account; "taker" for whoever took the photo a standalone checker reads (the
# viewer here; 404 to anyone else); "-" where the method is not allowed: 405 (Django's own
# account views send a visitor with no account to log in first).
ENDPOINTS = {
    "home": ("signed-in", "-"),
    "healthz": ("anyone", "-"),
    "healthz_tasks": ("anyone", "-"),
    "security_txt": ("anyone", "-"),
    "service_worker": ("anyone", "-"),
    "signup": ("anyone", "anyone"),
    "account": ("signed-in", "signed-in"),
    "account_delete": ("-", "signed-in"),
    "sessions_end": ("-", "signed-in"),
    "account_language": ("-", "signed-in"),
    "password_reset": ("anyone", "anyone"),
    "login": ("anyone", "anyone"),
    "login_code": ("anyone", "anyone"),
    "email_confirm": ("anyone", "anyone"),
    "two_factor_enable": ("signed-in", "signed-in"),
    "two_factor_codes": ("-", "signed-in"),
    "two_factor_disable": ("-", "signed-in"),
    "logout": ("-", "anyone"),
    "password_change": ("signed-in", "signed-in"),
    "password_change_done": ("signed-in", "-"),
    "password_reset_done": ("anyone", "-"),
    "password_reset_confirm": ("anyone", "anyone"),
    "password_reset_complete": ("anyone", "-"),
    "club_new": ("signed-in", "signed-in"),
    "club_join": ("-", "signed-in"),
    "club": ("viewer", "-"),
    "player_add": ("-", "scorer"),
    "season_add": ("-", "owner"),
    "club_export_json": ("viewer", "-"),
    "club_export_csv": ("viewer", "-"),
    "season_export_csv": ("viewer", "-"),
    "club_import": ("owner", "owner"),
    "club_import_progress": ("owner", "-"),
    "club_recount": ("-", "owner"),
    "club_recounting": ("viewer", "-"),
    "members": ("viewer", "-"),
    "invite_set": ("-", "owner"),
    "invite_rotate": ("-", "owner"),
    "club_leave": ("-", "viewer"),
    "member_role": ("-", "owner"),
    "member_remove": ("-", "owner"),
    "club_time_zone": ("-", "owner"),
    "club_tablet_idle": ("-", "owner"),
    "profile_new": ("owner", "owner"),
    "game_new": ("scorer", "scorer"),
    "profile_edit": ("owner", "owner"),
    "game": ("viewer", "-"),
    "game_live": ("viewer", "-"),
    "tv_link_create": ("-", "scorer"),
    "tv_link_revoke": ("-", "scorer"),
    "tv": ("anyone", "-"),
    **{tap.name: ("-", "scorer") for tap in TAPS.values()},  # the round screen's taps: one view
    "score": ("-", "scorer"),
    "undo": ("-", "scorer"),
    "score_photo": ("-", "scorer"),
    "round_edit": ("scorer", "scorer"),
    "history": ("viewer", "-"),
    "game_sheet": ("viewer", "-"),
    "table_check": ("scorer", "scorer"),
    "melds_record": ("-", "scorer"),
    "lay_off": ("-", "scorer"),
    "table_photo": ("-", "scorer"),
    "photo": ("viewer", "-"),
    "photo_delete": ("-", "scorer"),
    "photo_reading": ("viewer", "-"),
    "club_standings": ("viewer", "-"),
    "club_tonight": ("viewer", "-"),
    "tonight_sheet": ("viewer", "-"),
    "tonight_tv_link_create": ("-", "scorer"),
    "tonight_tv_link_revoke": ("-", "scorer"),
    "tonight_tv": ("anyone", "-"),
    "season_standings": ("viewer", "-"),
    "season_close": ("-", "owner"),
    "season_share": ("-", "owner"),
    "season_unshare": ("-", "owner"),
    "shared_standings": ("anyone", "-"),
    "player": ("viewer", "-"),
    "player_me": ("-", "viewer"),
    "player_unlink": ("-", "viewer"),
    "play_again": ("-", "scorer"),
    "checker": ("signed-in", "signed-in"),
    "cards_preview": ("signed-in", "-"),
    "count_check": ("signed-in", "-"),
    "checker_photo": ("-", "signed-in"),
    "checker_photo_reading": ("taker", "-"),
    "rules_summary": ("viewer", "-"),
    "table_photos": ("viewer", "-"),
    "club_delete": ("owner", "owner"),
    "player_delete": ("owner", "owner"),
    "profile_delete": ("owner", "owner"),
    "season_delete": ("owner", "owner"),
    "game_delete": ("owner", "owner"),
}

# The visitors: each makes each request in turn, on the same club, every request rolled back.
VISITORS = ["anonymous", "outsider", "viewer", "scorer", "owner"]
ROLES = [Role.VIEWER, Role.SCORER, Role.OWNER]


def url_names(patterns, prefix="") -> dict[str, str]:
    """Each named URL pattern below `patterns` (the admin's own apart), with its route."""
    names = {}
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.app_name != "admin":
                names |= url_names(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.setdefault(pattern.name, prefix + str(pattern.pattern))
    return names


ROUTES = url_names(get_resolver().url_patterns)


def test_every_url_pattern_has_a_row():
    assert set(ROUTES) == set(ENDPOINTS)


def build_club_world(media: Path):
    """A club with one member of each role, a table in contract 2 with a photo, a shared season,
    TV links (the table's and the club night's) and a file refused by the import; and an
    outsider with an account."""
    game = make_game(players=3)
    play_round(game, went_out=0, points=[10, 20])
    game.refresh_from_db()
    club = game.club
    people = {"owner": game.created_by, "outsider": make_user()}
    for role in (Role.SCORER, Role.VIEWER):
        people[role.value] = make_user()
        Membership.objects.create(club=club, user=people[role.value], role=role)
    season = services.season_share(season=game.season, user=club.owner())
    link = services.tv_link_create(game=game, user=club.owner())
    club = services.club_tv_link_create(club=club, user=club.owner())
    objects = {
        "clubs": club,
        "tables": game,
        "profiles": club.profiles.get(),
        "seasons": season,
        "players": game.seats.first().player,
        "photos": stray_photo(game),  # its file written below
        "members": club.memberships.get(role=Role.VIEWER),
        "imports": ClubImport.objects.create(
            club=club, created_by=club.owner(), status=ImportStatus.REFUSED, problem="Not JSON."
        ),
    }
    (media / "photos").mkdir(parents=True)
    (media / "photos" / "stray.jpg").write_bytes(JPEG)
    taken = services.upload_keep(photo=UploadedPhoto(JPEG, 1, 1), user=people["viewer"]).id
    tokens = {"tv": link.token, "shared": season.share_token, "task": taken}
    tokens["tonight"] = club.tv_token
    tokens["accounts"] = "not-a-token"  # an e-mail confirmation link (test_views_accounts)
    return objects, tokens, people


def sessions_of(people: dict) -> dict[str, str]:
    """Each visitor with an account logged in once: their session's key. A log-in writes the
    session, the last login and django-axes' log, and a log-out django-axes' log again: done
    for every request, they were half of the module's time."""
    sessions = {}
    for visitor, user in people.items():
        client = Client()
        client.force_login(user)
        sessions[visitor] = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return sessions


@pytest.fixture(scope="module")
def built_world(django_db_setup, django_db_blocker, tmp_path_factory):
    """The club's world, its photos' folder and its visitors' sessions, built once for the
    module's tests."""
    media = tmp_path_factory.mktemp("media")
    with built_once(django_db_blocker), override_settings(MEDIA_ROOT=media):
        world = build_club_world(media)
        yield media, world, sessions_of(world[2])


@pytest.fixture
def club_world(built_world, settings):
    media, world, _ = built_world
    settings.MEDIA_ROOT = media
    return world


@pytest.fixture
def sessions(built_world):
    return built_world[2]


def address(name: str, objects: dict, tokens: dict) -> str:
    route = ROUTES[name]
    kwargs = {}
    if "<int:pk>" in route:
        kwargs["pk"] = objects[route.split("/")[0]].pk
    if "<int:number>" in route:
        kwargs["number"] = 1
    if "<int:season_pk>" in route:
        kwargs["season_pk"] = objects["seasons"].pk
    if "<slug:token>" in route or "<str:token>" in route:
        kwargs["token"] = tokens[route.split("/")[0]]
    if "<str:task_id>" in route:
        kwargs["task_id"] = tokens["task"]
    if "<uidb64>" in route:
        kwargs |= {"uidb64": "MQ", "token": "set-password"}
    return reverse(name, kwargs=kwargs)


def expected(rule: str, visitor: str) -> str:
    """What `visitor` meets at an endpoint with `rule`: allowed, or the refusal's status."""
    if rule == "-":
        return "405 or login" if visitor == "anonymous" else "405"
    if rule == "anyone":
        return "allowed"
    if visitor == "anonymous":
        return "login"
    if rule == "signed-in":
        return "allowed"
    if rule == "taker":
        return "allowed" if visitor == "viewer" else "404"
    if visitor == "outsider":
        return "404"
    return "allowed" if Role(visitor).allows(Role(rule)) else "403"


@pytest.mark.parametrize("name", sorted(ENDPOINTS))
def test_each_visitor_meets_the_rule_of_the_endpoint(client, club_world, sessions, name):
    objects, tokens, people = club_world
    target = address(name, objects, tokens)
    before = database_state()
    for method, rule in zip(("get", "post"), ENDPOINTS[name], strict=True):
        for visitor in VISITORS:
            # No cookie but the visitor's session, as a log-out then a log-in would leave it.
            client.cookies = SimpleCookie()
            if visitor != "anonymous":
                client.cookies[django_settings.SESSION_COOKIE_NAME] = sessions[visitor]
            with transaction.atomic():  # what one visitor did, the next does not meet
                response = getattr(client, method)(target)
                after = database_state()
                transaction.set_rollback(True)
            outcome = expected(rule, visitor)
            what = f"{method.upper()} {name} as {visitor}: {response.status_code}"
            to_login = response.status_code == 302 and response["Location"].startswith(
                reverse("login")
            )
            assert response.status_code < 500, what
            if outcome == "allowed":
                assert response.status_code not in (403, 404, 405), what
                assert rule == "anyone" or not to_login, what
                continue
            if outcome == "login":
                assert to_login, what
            elif outcome == "405 or login":
                assert response.status_code == 405 or to_login, what
            else:
                assert str(response.status_code) == outcome, what
            assert after == before, what


@pytest.mark.parametrize("role", [Role.VIEWER, Role.SCORER])
def test_the_403_page_says_who_may(client, club_world, role):
    objects, _, people = club_world
    client.force_login(people[role.value])
    response = client.post(reverse("season_add", args=[objects["clubs"].pk]), {"name": "X"})
    assert response.status_code == 403
    assert "Only the club&#x27;s owners may do that." in response.content.decode()
