"""The login lockout, through the real login view: wrong passwords count per account at an
address, and per address; a login wipes only its own account's failures at its own address."""

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"  # make_user's
TABLET, STRANGER = "192.0.2.10", "203.0.113.66"


def log_in(client, username: str, password: str, address: str) -> int:
    data = {"username": username, "password": password}
    status = client.post(reverse("login"), data, REMOTE_ADDR=address).status_code
    client.logout()
    return status


def test_logging_in_to_ones_own_account_between_guesses_wipes_none_of_them(client):
    """The probe: four guesses at "victim", one good login to one's own account, six times.
    A login used to wipe every failure of its address, so 24 guesses were never locked."""
    victim, own = make_user("victim"), make_user("guesser")
    guesses = []
    for _ in range(6):
        guesses += [log_in(client, victim.username, "guess", STRANGER) for _ in range(4)]
        log_in(client, own.username, PASSWORD, STRANGER)
    limit = settings.AXES_FAILURE_LIMIT
    assert guesses == [200] * (limit - 1) + [429] * (len(guesses) - limit + 1)
    assert log_in(client, victim.username, PASSWORD, STRANGER) == 429
    assert log_in(client, victim.username, PASSWORD, TABLET) == 302


def test_a_stranger_cannot_lock_the_owner_out_of_their_own_tablet(client):
    owner = make_user("owner")
    statuses = [log_in(client, owner.username, "guess", STRANGER) for _ in range(6)]
    assert statuses[-2:] == [429, 429]
    assert log_in(client, owner.username, PASSWORD, STRANGER) == 429
    assert log_in(client, owner.username, PASSWORD, TABLET) == 302


def test_a_login_wipes_its_own_failures_at_its_own_address_only(client):
    ann = make_user("ann")
    limit = settings.AXES_FAILURE_LIMIT
    for address in (TABLET, STRANGER):
        for _ in range(limit - 1):
            assert log_in(client, ann.username, "typo", address) == 200
    assert log_in(client, ann.username, PASSWORD, TABLET) == 302
    # Her tablet starts again from nothing; the stranger's address is one guess from the limit.
    assert log_in(client, ann.username, "typo", TABLET) == 200
    assert log_in(client, ann.username, "guess", STRANGER) == 429


def test_one_address_trying_a_few_passwords_at_many_accounts_is_locked(client, settings):
    per_account = settings.AXES_FAILURE_LIMIT - 1
    accounts = 2  # DJANGO_LOGIN_ATTEMPTS_PER_ADDRESS's 20 would take 20 requests to show
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = accounts * per_account
    users = [make_user(f"member{n}") for n in range(accounts + 1)]
    for user in users[:accounts]:
        for _ in range(per_account):
            log_in(client, user.username, "guess", STRANGER)
    # No account reached its own limit, but the address reached its: every login from it waits.
    assert log_in(client, users[-1].username, PASSWORD, STRANGER) == 429
    assert log_in(client, users[-1].username, PASSWORD, TABLET) == 302
