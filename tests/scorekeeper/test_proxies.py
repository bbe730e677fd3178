"""The client's address behind the proxies of DJANGO_TRUSTED_PROXIES (scorekeeper/proxies.py),
as the login lockout and the throttles count it, and the deploy checks of the hosted setup."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.checks import run_checks
from django.test import RequestFactory
from django.urls import reverse

from scorekeeper.proxies import client_address
from tests.factories import make_user

# slow: settings read by fresh interpreters.
pytestmark = pytest.mark.slow

BASE_DIR = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-test-password"
PROXY = "10.0.0.1"


@pytest.fixture
def one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT, settings.TRUSTED_PROXY_LIST = 1, []


@pytest.mark.parametrize(
    ("count", "proxies", "remote", "forwarded", "client"),
    [
        # No proxy configured: whatever a client forwards is never read.
        (0, [], PROXY, "203.0.113.5", PROXY),
        (0, [], PROXY, "", PROXY),
        # One proxy: the address it heard from is the last one forwarded.
        (1, [], PROXY, "203.0.113.5", "203.0.113.5"),
        (1, [], PROXY, "6.6.6.6, 203.0.113.5", "203.0.113.5"),  # the first one forged
        (1, [], PROXY, "", PROXY),  # came round the proxy
        (1, [], PROXY, "not an address", PROXY),
        (1, [], PROXY, "2001:db8::7", "2001:db8::7"),
        # Two proxies: one more hop from the right.
        (2, [], PROXY, "6.6.6.6, 203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (2, [], PROXY, "203.0.113.5", PROXY),  # a chain too short came round a proxy
        # Proxies by address, outermost first: only they are passed.
        (2, ["10.0.0.2", PROXY], PROXY, "203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (2, ["10.0.0.2", PROXY], "10.9.9.9", "203.0.113.5, 10.0.0.2", "10.9.9.9"),
        (1, ["10.0.0.0/8"], PROXY, "203.0.113.5", "203.0.113.5"),
    ],
)
def test_the_client_address(settings, count, proxies, remote, forwarded, client):
    settings.TRUSTED_PROXY_COUNT, settings.TRUSTED_PROXY_LIST = count, proxies
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/", REMOTE_ADDR=remote, **headers)
    assert client_address(request) == client


def guess(client, username: str, forwarded: str, password: str = "guess") -> int:
    data = {"username": username, "password": password}
    return client.post(
        reverse("login"), data, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded
    ).status_code


@pytest.mark.django_db
def test_behind_a_trusted_proxy_two_clients_are_locked_out_apart(client, one_proxy):
    ann = make_user("ann")
    # Eve's address guesses at Ann's account five times: locked there...
    for _ in range(4):
        assert guess(client, ann.username, "203.0.113.5") == 200
    assert guess(client, ann.username, "203.0.113.5") == 429
    assert guess(client, ann.username, "203.0.113.5", PASSWORD) == 429
    # ...and Ann, from her own address behind the same proxy, logs in.
    assert guess(client, ann.username, "198.51.100.7", PASSWORD) == 302


@pytest.mark.django_db
def test_with_no_proxy_configured_a_forged_address_changes_nothing(client):
    ann = make_user("ann")
    for n in range(4):
        assert guess(client, ann.username, f"203.0.113.{n}") == 200
    assert guess(client, ann.username, "203.0.113.4") == 429
    # Every guess counted against the address it came from, whatever it said it forwarded.
    assert guess(client, ann.username, "198.51.100.7", PASSWORD) == 429


@pytest.mark.django_db
def test_behind_a_trusted_proxy_sign_ups_are_counted_per_client(client, one_proxy):
    def sign_up(name: str, forwarded: str) -> int:
        data = {"username": name, "password1": "Tab1e-talk!", "password2": "Tab1e-talk!"}
        response = client.post(
            reverse("signup"), data, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded
        )
        client.logout()
        return response.status_code

    for n in range(10):
        assert sign_up(f"u{n}", "203.0.113.5") == 302
    assert sign_up("u10", "203.0.113.5") == 429
    assert sign_up("u11", "198.51.100.7") == 302


def check_ids() -> set[str]:
    return {message.id for message in run_checks(include_deployment_checks=True)}


@pytest.mark.django_db
def test_deploy_check_refuses_photos_on_a_disk_thrown_away(settings):
    settings.EPHEMERAL_DISK = True
    assert "scorekeeper.E002" in check_ids()
    settings.EPHEMERAL_DISK = False
    assert "scorekeeper.E002" not in check_ids()


@pytest.mark.django_db
def test_deploy_check_warns_of_a_proxy_trusted_for_tls_but_not_for_addresses(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXY_COUNT = 0
    assert "scorekeeper.W001" in check_ids()
    settings.TRUSTED_PROXY_COUNT = 1
    assert "scorekeeper.W001" not in check_ids()
    settings.SECURE_PROXY_SSL_HEADER, settings.TRUSTED_PROXY_COUNT = None, 0
    assert "scorekeeper.W001" not in check_ids()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("hosts", "proxies", "warned"),
    [
        (["scorekeeper.example.org"], ["1"], False),  # as .ci/run and the README deploy it
        (["scorekeeper.example.org", "localhost", "127.0.0.1", "[::1]"], ["1"], False),
        (["*"], ["1"], True),
        (["scorekeeper.example.org", "203.0.113.9"], ["1"], True),
        (["scorekeeper.example.org", "[2001:db8::1]"], ["1"], True),
        (["*"], ["10.0.0.1"], False),  # a list: a request not from it is counted by its own
        (["*"], [], False),  # no proxy: X-Forwarded-For is never read
    ],
)
def test_deploy_check_warns_of_a_proxy_count_that_requests_could_go_around(
    settings, hosts, proxies, warned
):
    settings.ALLOWED_HOSTS = hosts
    counted = len(proxies) == 1 and proxies[0].isdigit()
    settings.TRUSTED_PROXY_COUNT = int(proxies[0]) if counted else len(proxies)
    settings.TRUSTED_PROXY_LIST = [] if counted else proxies
    assert ("scorekeeper.W002" in check_ids()) is warned


def settings_of(environment: dict, expression: str) -> subprocess.CompletedProcess:
    """`expression` of the settings imported in a fresh interpreter with this environment."""
    return subprocess.run(
        [sys.executable, "-c", f"import scorekeeper.settings as s; print({expression})"],
        cwd=BASE_DIR,
        env={"PATH": "/usr/bin:/bin", "DJANGO_DEBUG": "true", **environment},
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize(
    ("value", "read"),
    [
        ("", "0 []"),
        ("1", "1 []"),
        ("2", "2 []"),
        ("10.0.0.2, 10.0.0.1", "2 ['10.0.0.2', '10.0.0.1']"),
        ("100.64.0.0/10", "1 ['100.64.0.0/10']"),
    ],
)
def test_the_trusted_proxies_come_from_the_environment(value, read):
    result = settings_of(
        {"DJANGO_TRUSTED_PROXIES": value}, "s.TRUSTED_PROXY_COUNT, s.TRUSTED_PROXY_LIST"
    )
    assert result.stdout.strip() == read, result.stderr


@pytest.mark.parametrize("value", ["one", "10.0.0.300", "-1", "1,router"])
def test_trusted_proxies_that_are_not_addresses_refuse_to_start(value):
    result = settings_of({"DJANGO_TRUSTED_PROXIES": value}, "s.TRUSTED_PROXY_COUNT")
    assert result.returncode != 0
    assert "DJANGO_TRUSTED_PROXIES must be a count (1) or addresses" in result.stderr


def test_a_storage_url_puts_the_photos_in_its_bucket():
    result = settings_of(
        {"DJANGO_STORAGE_URL": "s3://club-photos?region_name=eu-west-1"},
        "s.STORAGES['default']['OPTIONS']['bucket_name']",
    )
    assert result.stdout.strip() == "club-photos", result.stderr


def test_a_wrong_storage_url_refuses_to_start():
    result = settings_of({"DJANGO_STORAGE_URL": "club-photos"}, "1")
    assert result.returncode != 0
    assert "DJANGO_STORAGE_URL must be s3://BUCKET" in result.stderr


@pytest.mark.django_db
def test_the_throttles_counters_outlive_a_busy_night_of_other_cache_rows(client, one_proxy):
    # Django's database cache culls a third of its rows past MAX_ENTRIES (300 by default): a
    # night's tap ids and counters must not cull the sign-up counter.
    def sign_up(name: str) -> int:
        data = {"username": name, "password1": "Tab1e-talk!", "password2": "Tab1e-talk!"}
        response = client.post(
            reverse("signup"), data, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.9"
        )
        client.logout()
        return response.status_code

    for n in range(10):
        assert sign_up(f"v{n}") == 302
        cache.set_many({f"tap:{n}-{row}": row for row in range(100)})
    assert sign_up("v10") == 429
