"""A shared tablet forgets (static/js/sw.js, tablet.js, scorekeeper/middleware.py): once the session
that opened a table on it has ended anywhere (logged out from a phone, expired, idle for longer
than the club allows), the round screen it kept is no longer shown, connection or not."""

import re
import time

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from scorekeeper.middleware import IDLE, SEEN, SESSION_TAG_COOKIE, session_tag
from scorekeeper.models import Club
from tests.factories import make_game, make_user
from tests.scorekeeper.browser.test_offline import names, open_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def game():
    return make_game(players=4)


@pytest.fixture
def member(game):
    return game.club.memberships.get().user


def kept_pages(page) -> list[str]:
    return page.evaluate(
        "async () => (await caches.keys()).filter((name) => /^sk-(pages|tables)-/.test(name))"
    )


def shows_no_table(page, game):
    """The tablet shows none of the table: not its contract, not a player's name."""
    expect(page.get_by_role("heading", level=1)).not_to_contain_text("Contract")
    for name in names(game):
        expect(page.get_by_text(name, exact=True)).to_have_count(0)


def tag_cookie(page) -> dict:
    (cookie,) = [c for c in page.context.cookies() if c["name"] == SESSION_TAG_COOKIE]
    return cookie


def test_a_tablet_logged_out_from_a_phone_shows_the_table_no_more_offline(
    open_tablet, log_in, member, game
):
    tablet = open_table(open_tablet, log_in, member, game)
    assert kept_pages(tablet)
    phone = open_tablet()
    log_in(phone, member, at=reverse("account"))
    phone.get_by_role("button", name="Log out everywhere else").click()
    expect(phone.get_by_text("Logged out 1 other browser.")).to_be_visible()

    tablet.wait_for_url(re.compile("/accounts/login/"))  # at its next poll
    tablet.context.set_offline(True)
    tablet.goto(game.get_absolute_url())
    shows_no_table(tablet, game)
    assert kept_pages(tablet) == []


def test_a_tablet_whose_session_expired_shows_the_table_no_more_offline(
    open_tablet, log_in, member, game
):
    tablet = open_table(open_tablet, log_in, member, game)
    Session.objects.update(expire_date=timezone.now() - timezone.timedelta(seconds=1))
    tablet.wait_for_url(re.compile("/accounts/login/"))
    tablet.context.set_offline(True)
    tablet.goto(game.get_absolute_url())
    shows_no_table(tablet, game)
    assert kept_pages(tablet) == []


def set_cookie(page, name, value, **changes):
    """A cookie of the site put in place of the one the server set (a cookie set from outside
    would stand beside the server's Secure one, not replace it)."""
    origin = re.match(r"https?://[^/]+", page.url)[0]
    page.context.clear_cookies(name=name)
    page.context.add_cookies([{"name": name, "value": value, "url": origin + "/"} | changes])


def idle_out(page, *, in_seconds: float):
    """The club's idle time runs out for the page's session `in_seconds` from now: on the
    server, which signs it out at its next request, and in the browser, whose cookie of it
    expires then (the browser's update checks of the service worker reach the server even
    with the page's network cut, so both must agree)."""
    sessionid = next(c for c in page.context.cookies() if c["name"] == "sessionid")["value"]
    session = SessionStore(session_key=sessionid)
    session[SEEN] = time.time() + in_seconds - session[IDLE] * 60 - 1
    session.save()
    tag = tag_cookie(page)
    set_cookie(page, SESSION_TAG_COOKIE, tag["value"], expires=time.time() + in_seconds)


def sign_in_as(page, user):
    """The tablet signed in to another session, of `user`, without the login form (whose
    answer the service worker watches): only the cookies say so."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    set_cookie(page, "sessionid", session.session_key)
    set_cookie(page, SESSION_TAG_COOKIE, session_tag(session.session_key))


def test_the_idle_time_running_out_with_no_connection_takes_the_table_off_the_screen(
    open_tablet, log_in, member, game
):
    Club.objects.update(tablet_idle_minutes=10)
    tablet = open_table(open_tablet, log_in, member, game)
    assert 590 < tag_cookie(tablet)["expires"] - time.time() <= 600
    tablet.context.set_offline(True)
    idle_out(tablet, in_seconds=1)
    shows_no_table(tablet, game)
    assert kept_pages(tablet) == []
    tablet.goto(game.get_absolute_url())
    shows_no_table(tablet, game)


def test_with_no_connection_the_worker_refuses_a_copy_kept_for_a_session_now_ended(
    open_tablet, log_in, member, game
):
    # The worker itself, with no page of the app open to check: the copy is refused because
    # the cookie no longer names the session it was kept for (idle for too long, here).
    Club.objects.update(tablet_idle_minutes=10)
    tablet = open_table(open_tablet, log_in, member, game)
    tablet.goto("/static/favicon.svg")
    tablet.context.set_offline(True)
    idle_out(tablet, in_seconds=0.5)
    tablet.wait_for_timeout(1_000)
    tablet.goto(game.get_absolute_url())
    expect(tablet.get_by_role("heading", level=1)).to_have_text("Signed out")
    shows_no_table(tablet, game)
    assert kept_pages(tablet) == []


def test_with_no_connection_a_copy_is_never_shown_to_another_session(
    open_tablet, log_in, member, game
):
    tablet = open_table(open_tablet, log_in, member, game)
    tablet.goto("/static/favicon.svg")
    tablet.context.set_offline(True)
    sign_in_as(tablet, make_user())
    tablet.goto(game.get_absolute_url())
    expect(tablet.get_by_role("heading", level=1)).to_have_text("Signed out")
    shows_no_table(tablet, game)
