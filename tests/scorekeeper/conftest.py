"""Fixtures for every test of the Django app (browser tests included)."""

import pytest


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
def member(client, game):
    """The `game` fixture's club member, logged in on `client`."""
    user = game.club.memberships.get().user
    client.force_login(user)
    return user


@pytest.fixture
def media(settings, tmp_path):
    """Uploaded files go to a folder of the test's own."""
    settings.MEDIA_ROOT = tmp_path
