"""Fixtures for every test of the Django app (browser tests included): the settings every test
runs under, and the tables the view and service tests start from."""

import fcntl
import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

import rules
from scorekeeper import services
from tests.factories import (
    bad_seat,
    go_down,
    go_out,
    make_club,
    make_game,
    make_other_table,
    make_user,
    member_of,
    play_round,
    seats,
)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "players(count): how many sit at the `game` fixture's table (4 unmarked)"
    )


@pytest.fixture(autouse=True)
def plain_static_files(settings):
    """Templates resolve static files without a collectstatic manifest (one test builds it), and
    WhiteNoise looks a file up when it is asked for: each test client starts a new middleware,
    which would otherwise list every collected file first (a third of a view test's time)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture(scope="session", autouse=True)
def fast_passwords():
    """Hashing a password the production way takes a third of a second: tests need no safety.
    For the whole run, so that the users a module builds once are quick too."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def rate_limit_clock(monkeypatch):
    """django-ratelimit counts in windows of the clock (a minute, an hour): a test making the
    31st question of a minute must not see the minute turn over halfway (it did, once in a CI
    run). Its clock stands still during a test; the servers a test starts keep the real one."""
    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


@pytest.fixture(autouse=True)
def default_language():
    """A request in Spanish leaves Spanish active on the test's thread (LocaleMiddleware turns it
    on, nothing turns it off): a service called after it, in this test or the worker's next one,
    would answer in Spanish. Every test starts from the default language."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    """Uploaded photos go to the test's own folder, never to the developer's media/."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture(params=[False, True], ids=["page", "htmx"])
def htmx_headers(request):
    """A test that takes these runs twice: as a plain request, and as htmx sends it."""
    return {"HX-Request": "true"} if request.param else {}


@pytest.fixture
def game(request):
    """A new club's table, contract 1; `@pytest.mark.players(n)` seats n players."""
    marker = request.node.get_closest_marker("players")
    return make_game(players=marker.args[0] if marker else 4)


@pytest.fixture
def member(client, game):
    """The client, logged in as the member of the table's club."""
    client.force_login(member_of(game))
    return member_of(game)


@pytest.fixture
def user(client):
    """An account of no club, signed in on `client`."""
    user = make_user()
    client.force_login(user)
    return user


@pytest.fixture
def stranger():
    """Another club's table, with a meld on it and a photo of it."""
    return make_other_table()


@pytest.fixture(params=["999999", "other table", "abc", "", "-1", "1.5"])
def not_this_tables_seat(request, stranger):
    """A seat the table's forms must refuse, as a form posts it (see bad_seat)."""
    return bad_seat(request.param, stranger)


@pytest.fixture
def scoring(game):
    """The table with seat 1 gone out: the others are to be scored."""
    go_out(game, seats(game)[0])
    return game


@pytest.fixture
def one_round_played(game):
    play_round(game, went_out=0, points=[10, 20, 30])
    game.refresh_from_db()
    return game


@pytest.fixture
def down(game):
    """Seat 1 has gone down with two books; nobody else has."""
    go_down(game, seats(game)[0], "7H 7S 7D | 9C 9H 9S")
    game.refresh_from_db()
    return game


@pytest.fixture
def finished(game):
    for _ in range(7):
        play_round(game, went_out=0, points=[10, 20, 30])
    game.refresh_from_db()
    assert game.finished_at is not None
    return game


@pytest.fixture
def short_rules(game):
    """A profile of the member's club with three contracts."""
    house_rules = rules.HouseRules.from_dict(
        {"contracts": [[2, 0], [1, 1], [0, 2]], "cards_dealt": [10, 10, 10]}
    )
    return services.profile_save(
        user=game.club.owner(), club=game.club, name="Short", house_rules=house_rules
    )


@pytest.fixture
def last_contract():
    """A table at contract 7: three runs, no discard."""
    game = make_game(players=3)
    for _ in range(6):
        play_round(game)
    game.refresh_from_db()
    return game


@pytest.fixture
def bonus_game():
    """Three players under a 10-point Shanghai bonus and the rummy bonus."""
    club = make_club()
    profile = services.profile_save(
        club=club,
        name="Bonuses",
        house_rules=rules.HouseRules(shanghai_bonus=10, rummy_bonus=True),
        user=club.owner(),
    )
    return make_game(club, 3, profile=profile)


MANIFEST_STORAGE = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}
# Other apps' static files, which the tests of collected files do not read: the admin's and
# django-htmx's thousand files were four fifths of collectstatic's time.
NOT_OURS = ["admin", "django_htmx"]


@pytest.fixture(scope="session")
def static_collected(tmp_path_factory, worker_id):
    """collectstatic, once a run (it takes seconds of CPU): the first worker to need it collects
    into the run's directory, under a lock, and the others read what it wrote."""
    base = tmp_path_factory.getbasetemp()
    root = (base if worker_id == "master" else base.parent) / "static"
    with open(f"{root}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "staticfiles.json").exists():
            storages = {**django_settings.STORAGES, "staticfiles": MANIFEST_STORAGE}
            with override_settings(STATIC_ROOT=root, STORAGES=storages):
                call_command(
                    "collectstatic", interactive=False, verbosity=0, ignore_patterns=NOT_OURS
                )
    return root


@pytest.fixture
def collected_static(settings, static_collected):
    """Static files collected as in production (hashed, compressed), as STATIC_ROOT.
    A new test Client loads a new WhiteNoise middleware, which reads them."""
    settings.STATIC_ROOT = static_collected
    settings.STORAGES = {**settings.STORAGES, "staticfiles": MANIFEST_STORAGE}
    settings.WHITENOISE_AUTOREFRESH = False
    return static_collected
