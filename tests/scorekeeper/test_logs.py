"""The app's log lines (scorekeeper/logs.py and LOGGING): one line a record with its request's
id, a client's mistake without a traceback, errors e-mailed to the admins and sent to Sentry."""

import gzip
import http.server
import io
import logging
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import brotli
import pytest
from django.core import mail
from django.test import RequestFactory
from django.urls import reverse

from scorekeeper.logs import ErrorMailLimit, RequestIdFilter
from tests.factories import make_game, make_user

BASE_DIR = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


@pytest.fixture
def log_lines():
    """What the app's own console handler writes, as it formats and filters it."""
    (console,) = [
        h
        for h in logging.getLogger().handlers
        if isinstance(h, logging.StreamHandler)
        and any(isinstance(f, RequestIdFilter) for f in h.filters)
    ]
    written = io.StringIO()
    before = console.setStream(written)
    yield lambda: [line for line in written.getvalue().splitlines() if "django.request" in line]
    console.setStream(before)


def test_a_404_is_one_line_with_the_request_id_the_response_names(client, log_lines):
    client.force_login(make_user())
    response = client.get("/tables/999999/")
    assert response.status_code == 404
    assert log_lines() == [
        f"WARNING [{response['X-Request-ID']}] django.request: Not Found: /tables/999999/"
    ]


def test_a_403_is_one_line_and_no_traceback(client, log_lines):
    game = make_game(players=3)
    viewer = make_user()
    game.club.memberships.create(user=viewer, role="viewer")
    client.force_login(viewer)
    response = client.post(reverse("may_i", args=[game.pk]), {"version": 0, "seat": 1})
    assert response.status_code == 403
    (line,) = log_lines()
    assert line.startswith(f"WARNING [{response['X-Request-ID']}] django.request: Forbidden")
    assert "Traceback" not in line


def test_a_409_is_one_line_and_no_traceback(client, log_lines):
    game = make_game(players=3)
    client.force_login(game.created_by)
    seat = game.seats.order_by("position").first()
    stale = game.version
    client.post(reverse("may_i", args=[game.pk]), {"version": stale, "seat": seat.pk})
    response = client.post(reverse("may_i", args=[game.pk]), {"version": stale, "seat": seat.pk})
    assert response.status_code == 409
    (line,) = log_lines()
    assert line == (
        f"WARNING [{response['X-Request-ID']}] django.request: Conflict: /tables/{game.pk}/may-i/"
    )


# A view that refuses (403) and one that answers a stale screen (409), in a URLconf of the
# script's own, asked through Django's test client in a process of its own: its stderr is all
# that the app's logging printed, whichever handlers printed it.
REFUSALS = """
import sys, types, django
django.setup()
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import path
def refused(request):
    raise PermissionDenied("Only the club's scorers and owners may do that.")
def stale(request):
    return HttpResponse("changed on another screen", status=409)
urls = types.ModuleType("refusal_urls")
from scorekeeper.urls import urlpatterns as the_apps  # the middleware reverses the login page
urls.urlpatterns = [path("refused", refused), path("stale", stale), *the_apps]
sys.modules["refusal_urls"] = urls
from django.conf import settings
plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
storages = {**settings.STORAGES, "staticfiles": plain}  # no collected files to look up
with override_settings(ROOT_URLCONF="refusal_urls", ALLOWED_HOSTS=["t"], STORAGES=storages):
    assert Client(SERVER_NAME="t").get("/refused").status_code == 403
    assert Client(SERVER_NAME="t").post("/stale").status_code == 409
"""


@pytest.mark.slow
@pytest.mark.parametrize("debug", ["false", "true"])
def test_a_403_and_a_409_are_printed_once_each_whatever_the_handlers(debug, tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", REFUSALS],
        cwd=BASE_DIR,
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_DEBUG": debug,
            "DJANGO_SECRET_KEY": "tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
            "DJANGO_SECURE_SSL_REDIRECT": "false",
            "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
            "DJANGO_DATA_DIR": str(tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    printed = (done.stdout + done.stderr).splitlines()
    (forbidden,) = [line for line in printed if "/refused" in line]
    (conflict,) = [line for line in printed if "/stale" in line]
    request_id = r"WARNING \[[0-9a-f]{16}\] django\.request: "
    assert re.fullmatch(request_id + r"Forbidden \(Permission denied\): /refused", forbidden)
    assert re.fullmatch(request_id + "Conflict: /stale", conflict)
    assert "Traceback" not in done.stderr


def test_every_request_has_an_id_of_its_own(client):
    first, second = client.get(reverse("login")), client.get(reverse("login"))
    assert re.fullmatch(r"[0-9a-f]{16}", first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


@pytest.mark.parametrize(
    ("proxies", "given", "kept"),
    [(1, "router-4f2a-91", True), (0, "router-4f2a-91", False), (1, "bad id; rm -rf", False)],
)
def test_the_routers_request_id_is_kept_only_behind_a_trusted_proxy(
    client, settings, proxies, given, kept
):
    settings.TRUSTED_PROXY_COUNT = proxies
    response = client.get(reverse("login"), HTTP_X_REQUEST_ID=given)
    assert (response["X-Request-ID"] == given) is kept


def test_an_error_is_mailed_to_the_admins(settings):
    settings.ADMINS = ["Ann <ann@example.org>"]
    request = RequestFactory().get("/tables/1/")
    logging.getLogger("django.request").error(
        "Internal Server Error: %s", request.path, extra={"status_code": 500, "request": request}
    )
    assert [message.to for message in mail.outbox] == [["Ann <ann@example.org>"]]
    assert "Internal Server Error: /tables/1/" in mail.outbox[0].subject


def error_logged(path, error=None):
    request = RequestFactory().get(path)
    try:
        raise error or ConnectionError("the database is gone")
    except Exception as raised:  # logged as Django logs a view's exception
        logging.getLogger("django.request").error(
            "Internal Server Error: %s",
            path,
            exc_info=(type(raised), raised, raised.__traceback__),
            extra={"status_code": 500, "request": request},
        )


def test_an_outage_is_mailed_once_for_each_kind_of_error(settings):
    settings.ADMINS = ["Ann <ann@example.org>"]
    for n in range(60):
        error_logged(f"/tables/{n}/")
    assert len(mail.outbox) == 1
    error_logged("/tables/1/", KeyError("another kind"))
    logging.getLogger("django.request").error("Service Unavailable: %s", "/x/")
    assert len(mail.outbox) == 3


@pytest.fixture
def mail_limit():
    """The error mails' filter, as LOGGING made it; what it counted by itself is forgotten
    after the test, so no other test finds a kind already sent."""
    (limit,) = [
        found
        for handler in logging.getLogger("django").handlers
        for found in handler.filters
        if isinstance(found, ErrorMailLimit)
    ]
    yield limit
    limit._sent.clear()
    limit._cache_down_until = 0.0


def test_errors_are_counted_where_they_are_when_the_cache_is_unreachable(settings, mail_limit):
    settings.ADMINS = ["Ann <ann@example.org>"]
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    started = time.monotonic()
    for n in range(5):
        error_logged(f"/tables/{n}/", LookupError("unreachable cache"))
    assert len(mail.outbox) == 1
    assert time.monotonic() - started < 2  # the cache is asked once, not for every error


def test_a_request_for_a_host_not_ours_is_mailed_to_nobody(client, settings):
    settings.ADMINS = ["Ann <ann@example.org>"]
    for _ in range(3):
        assert client.get("/", HTTP_HOST="scanner.example").status_code == 400
    assert mail.outbox == []


def test_the_admins_come_from_the_environment():
    result = subprocess.run(
        [sys.executable, "-c", "import scorekeeper.settings as s; print(s.ADMINS)"],
        cwd=BASE_DIR,
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_DEBUG": "true",
            "DJANGO_ADMINS": "Ann Smith <ann@example.org>, bob@example.org",
        },
        capture_output=True,
        text=True,
    )
    assert result.stdout.strip() == "['Ann Smith <ann@example.org>', 'bob@example.org']"


class Collector(http.server.BaseHTTPRequestHandler):
    """A stand-in for Sentry's ingest: keeps what it is sent."""

    received: list[tuple[str, bytes]] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.headers.get("Content-Encoding") == "br":
            body = brotli.decompress(body)
        elif self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        Collector.received.append((self.path, body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_an_error_reaches_sentry_when_a_dsn_is_set():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    dsn = f"http://public@127.0.0.1:{server.server_address[1]}/7"
    # A view that fails, in a URLconf of the script's own, asked through Django's test client.
    code = (
        "import sys, types, django, sentry_sdk\n"
        "django.setup()\n"
        "from django.test import Client, override_settings\n"
        "from django.urls import path\n"
        "def boom(request):\n"
        "    raise RuntimeError('a bug at the table')\n"
        "urls = types.ModuleType('boom_urls')\n"
        "urls.urlpatterns = [path('boom', boom)]\n"
        "sys.modules['boom_urls'] = urls\n"
        "with override_settings(ROOT_URLCONF='boom_urls', ALLOWED_HOSTS=['testserver']):\n"
        "    assert Client(raise_request_exception=False).get('/boom').status_code == 500\n"
        "sentry_sdk.flush(5)\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=BASE_DIR,
            env={
                "PATH": "/usr/bin:/bin",
                "DJANGO_DEBUG": "true",
                "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
                "SENTRY_DSN": dsn,
            },
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.shutdown()
    assert done.returncode == 0, done.stderr
    assert any(
        path.startswith("/api/7/") and b"a bug at the table" in body
        for path, body in Collector.received
    ), Collector.received
