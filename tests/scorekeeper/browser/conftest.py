"""Browser fixtures: Playwright driving Debian's Chromium (never a downloaded browser) against
pytest-django's live server, at a tablet's viewport. Later features reuse `tablet` and `log_in`."""

import os
import re
import shutil
import threading

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import sync_playwright

from tests.factories import make_worker

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make around it
# are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Debian's old headless shell where installed (`make chromium`): the same engine without the
# desktop browser's compositor and windowing, half the CPU a page; else the full browser.
CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium")
TABLET = {"width": 1024, "height": 768}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/scorekeeper/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def open_tablet(chromium, live_server):
    """Opens fresh pages at 1024x768, each a device of its own (its own cookies), whose relative
    URLs go to the live server. None may report an error, except those a test says it expects
    (`expected`, a pattern: a cut network makes the browser report failed requests). Service
    workers are blocked unless a test allows them (`service_workers="allow"`): with one, the
    page's requests go through it, where `page.route` no longer sees them."""
    contexts, errors = [], []

    def open_tablet(*, expected: str | None = None, viewport=TABLET, service_workers="block"):
        context = chromium.new_context(
            viewport=viewport,
            base_url=live_server.url,
            has_touch=True,
            service_workers=service_workers,
            # A tablet's browser grants a page on the network the wake lock without asking.
            permissions=["screen-wake-lock"],
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()

        def report(text):
            if not (expected and re.search(expected, text)):
                errors.append(text)

        page.on("pageerror", lambda error: report(str(error)))
        page.on(
            "console", lambda message: report(message.text) if message.type == "error" else None
        )
        return page

    yield open_tablet
    for context in contexts:
        context.close()
    assert not errors, f"the page reported errors: {errors}"


@pytest.fixture
def tablet(open_tablet):
    """A fresh page at 1024x768 whose relative URLs go to the live server."""
    return open_tablet()


@pytest.fixture
def log_in(live_server):
    """Sign a page's browser in as `user`: Django's own log-in (`Client.force_login`, which
    sends the same signal as the login form: the member's session is recorded, django-axes
    logs it) and its session cookie handed to the browser; then the page opens `at` (the home
    page, where the form leads, unless the test goes elsewhere first).

    The login form is driven in a browser by the screen checks' `signed_in`
    (test_screens.py) and tested as a view in test_views_accounts.py; here it would cost each
    test another page load and a form sent, half a second of CPU."""

    def log_in(page, user, *, at="/"):
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}
        page.context.add_cookies([cookie])
        page.goto(at)

    return log_in


@pytest.fixture
def task_worker(live_server):
    """A worker beside the live server, as the Procfile runs one: django-tasks-db's own worker
    loop, in a thread of this process (it shares the live server's test database), running the
    tasks the pages queue: photos to read, club imports, recounts."""
    worker = make_worker("browser-tests", interval=0.1)
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    yield worker
    worker.running = False
    thread.join(timeout=30)
