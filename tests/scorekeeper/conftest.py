"""Fixtures for every test of the Django app (browser tests included)."""

import pytest
from django.core.management import call_command

from tests.factories import make_game


@pytest.fixture(autouse=True)
def plain_static_files(settings):
    """Templates resolve static files without a collectstatic manifest (one test builds it)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Hashing a password the production way takes a quarter of a second: tests need no safety."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def game():
    """A four-player table, contract 1 dealt (modules that need another table define their own)."""
    return make_game(players=4)


@pytest.fixture
def member(client, game):
    """The table's club member, logged in on `client`."""
    user = game.club.memberships.get().user
    client.force_login(user)
    return user


@pytest.fixture
def collected_static(settings, tmp_path):
    """Static files collected as in production (hashed, compressed) into a fresh STATIC_ROOT.
    A new test Client loads a new WhiteNoise middleware, which reads them."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    return tmp_path
