"""The shared cache (DJANGO_CACHE_URL): a real Redis of its own (Debian's redis-server as a
process, tools/redis_server.py), reached through Django's RedisCache as production reaches it.
An unchanged table's poll is answered from it with no query; a changed table, a session ended,
a member taken out, a table deleted or a TV link turned off are answered as without it; the
throttles and the offline queue's tap ids count in it; and while it is away, polls and taps are
503 "back in a moment" with nothing saved.

It needs redis-server (installed with apt when missing, so root): `make test` leaves it out
(marker `redis_server`), `.ci/run` runs it."""

import html
import re
import time
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Event, Membership, Role, TableLink
from scorekeeper.services import polls
from scorekeeper.settings import cache_settings
from tests.factories import eleventh_sign_up, make_game, make_user, member_of, seats, url
from tools.pg_cluster import free_port
from tools.redis_server import RedisServer

pytestmark = [pytest.mark.django_db, pytest.mark.redis_server, pytest.mark.slow]

HTMX = {"HX-Request": "true"}
PASSWORD = "a-long-test-password"  # make_user's


@pytest.fixture(scope="module")
def server():
    with RedisServer() as server:
        yield server


@pytest.fixture(autouse=True)
def shared_cache(server, settings):
    """The app's cache is the Redis server's, empty at the start of each test."""
    server.client().flushdb()
    settings.CACHES = {"default": cache_settings(server.url)}
    settings.POLLS_FROM_CACHE = True
    return server


def poll_url(client, game) -> str:
    """The address the round screen polls, as the page gives it."""
    page = client.get(game.get_absolute_url()).content.decode()
    return html.unescape(re.search(r'<div id="live" hx-get="([^"]+)"', page)[1])


def etag(game) -> str:
    game.refresh_from_db()
    return f'W/"table-{game.pk}-{game.version}"'


def poll(client, address: str, shown: str):
    return client.get(address, headers={**HTMX, "If-None-Match": shown})


def tap(game):
    game.refresh_from_db()
    services.may_i_spend(game=game, version=game.version, seat=seats(game)[0], user=game.created_by)


def following(client, game) -> tuple[str, str]:
    """A screen that follows the table: its poll address and the ETag it shows, once the cache
    holds what the unchanged answer needs (the first poll's query puts it there)."""
    address, shown = poll_url(client, game), etag(game)
    assert poll(client, address, shown).status_code == 304
    return address, shown


def test_an_unchanged_poll_is_answered_from_the_cache_with_no_query(
    client, member, game, django_assert_num_queries
):
    address, shown = poll_url(client, game), etag(game)
    with django_assert_num_queries(1):  # nothing in the cache yet: the query, which fills it
        assert poll(client, address, shown).status_code == 304
    with django_assert_num_queries(0):
        unchanged = poll(client, address, shown)
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert unchanged["ETag"] == shown
    assert "private" in unchanged["Cache-Control"] and "no-cache" in unchanged["Cache-Control"]
    assert unchanged["Vary"] == "HX-Request"  # answered before the session's middleware


def test_a_changed_table_is_answered_fresh_and_its_new_version_from_the_cache(
    client, member, game, django_assert_num_queries
):
    address, shown = following(client, game)
    tap(game)
    changed = poll(client, address, shown)
    assert changed.status_code == 200
    assert b"called May I?" in changed.content
    assert changed["ETag"] == etag(game) != shown
    # The tap told the cache its version: the screen's next poll needs no query either.
    with django_assert_num_queries(0):
        assert poll(client, address, changed["ETag"]).status_code == 304


def test_a_tap_through_the_page_reaches_the_other_tablets_screen(client, member, game):
    other = Client()
    other.force_login(member)
    address, shown = following(other, game)
    data = {"version": game.version, "seat": seats(game)[0].pk}
    assert client.post(url("may_i", game), data, headers=HTMX).status_code == 200
    assert poll(other, address, shown).status_code == 200


def test_a_version_the_cache_has_ahead_of_the_database_is_checked_with_the_query(
    client, member, game, server, django_assert_num_queries
):
    """What a write rolled back after telling the cache leaves: a version no screen shows."""
    address, shown = following(client, game)
    server.client().set(f":1:{polls.table_cache_key(game.pk)}", game.version + 1)
    with django_assert_num_queries(1):
        assert poll(client, address, shown).status_code == 304


def test_a_refused_tap_leaves_the_cache_ahead_and_the_screens_unchanged(client, member, game):
    address, shown = following(client, game)
    game.refresh_from_db()
    with pytest.raises(services.ActionRefused):
        # Seat 1's May I? tokens run out on the fourth: the write is rolled back.
        for _ in range(4):
            game.refresh_from_db()
            services.may_i_spend(
                game=game, version=game.version, seat=seats(game)[0], user=game.created_by
            )
    assert poll(client, address, etag(game)).status_code == 304
    assert poll(client, address, shown).status_code == 200


def test_a_browser_logged_out_elsewhere_is_sent_to_log_in_at_once(client, game):
    ann = member_of(game)
    tablet = Client()
    for browser in (client, tablet):
        response = browser.post(reverse("login"), {"username": ann.username, "password": PASSWORD})
        assert response.status_code == 302
    address, shown = following(tablet, game)
    assert client.post(reverse("sessions_end")).status_code == 302
    response = poll(tablet, address, shown)
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))


def test_the_old_cookie_of_a_browser_that_logged_out_gets_no_304(client, member, game):
    address, shown = following(client, game)
    cookie = client.cookies["sessionid"].value
    client.post(reverse("logout"))
    client.cookies["sessionid"] = cookie  # kept by whoever copied it
    response = poll(client, address, shown)
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))


def test_a_session_is_answered_from_the_cache_no_longer_than_it_lasts(client, member, game):
    Session.objects.update(expire_date=timezone.now() + timedelta(seconds=1.5))
    address, shown = following(client, game)  # kept for the second the session has left
    time.sleep(1.6)
    response = poll(client, address, shown)
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))


def test_a_member_taken_out_of_the_club_gets_a_404_at_once(client, member, game):
    address, shown = following(client, game)
    owner = make_user()
    Membership.objects.create(club=game.club, user=owner, role=Role.OWNER)
    membership = Membership.objects.get(club=game.club, user=member)
    services.member_remove(membership=membership, user=owner)
    assert poll(client, address, shown).status_code == 404


def test_a_member_who_leaves_gets_a_404_at_once(client, member, game):
    address, shown = following(client, game)
    Membership.objects.create(club=game.club, user=make_user(), role=Role.OWNER)
    services.member_leave(club=game.club, user=member)
    assert poll(client, address, shown).status_code == 404


def test_a_deleted_table_is_a_404_at_once(client, member, game):
    address, shown = following(client, game)
    services.game_delete(game=game, user=member)
    assert poll(client, address, shown).status_code == 404


def test_an_unchanged_tv_poll_needs_no_query_and_a_turned_off_link_is_a_404(
    client, member, game, django_assert_num_queries
):
    link = services.tv_link_create(game=game, user=member)
    tv, address = Client(), reverse("tv", args=[link.token])
    shown = f'W/"tv-{game.pk}-{game.version}"'
    with django_assert_num_queries(1):
        assert tv.get(address, headers={**HTMX, "If-None-Match": shown}).status_code == 304
    with django_assert_num_queries(0):
        unchanged = tv.get(address, headers={**HTMX, "If-None-Match": shown})
    assert unchanged.status_code == 304 and unchanged["X-Robots-Tag"] == "noindex"
    tap(game)
    changed = tv.get(address, headers={**HTMX, "If-None-Match": shown})
    assert changed.status_code == 200
    services.tv_link_revoke(game=game, user=member)
    gone = tv.get(address, headers={**HTMX, "If-None-Match": changed["ETag"]})
    assert gone.status_code == 404


def test_a_tv_poll_naming_another_table_in_its_etag_is_answered_with_its_own(client, member, game):
    """The cache finds the table from the ETag the TV sends, and checks the link is that
    table's: an ETag of another table, unchanged in the cache, gets this table in full."""
    other = make_game(game.club)
    tv = Client()
    for table in (game, other):
        token = services.tv_link_create(game=table, user=member).token
        shown = f'W/"tv-{table.pk}-{table.version}"'
        polled = tv.get(reverse("tv", args=[token]), headers={**HTMX, "If-None-Match": shown})
        assert polled.status_code == 304
    forged = f'W/"tv-{other.pk}-{other.version}"'
    answer = tv.get(reverse("tv", args=[token_of(game)]), headers={**HTMX, "If-None-Match": forged})
    assert answer.status_code == 200
    assert answer["ETag"] == f'W/"tv-{game.pk}-{game.version}"'


def token_of(game) -> str:
    return TableLink.objects.get(game=game).token


def test_the_checker_throttle_counts_in_redis(client, member, game):
    question = {"question": "meld", "cards": "6S 6H 6D"}
    for _ in range(30):
        assert client.post(reverse("table_check", args=[game.pk]), question).status_code == 200
    assert client.post(reverse("table_check", args=[game.pk]), question).status_code == 429


def test_sign_ups_from_one_address_are_limited_in_redis(client):
    assert eleventh_sign_up(client).status_code == 429


def test_a_password_guesser_is_locked_out_with_redis_as_the_cache(client):
    user = make_user()
    wrong = {"username": user.username, "password": "guess"}
    for _ in range(4):
        assert client.post(reverse("login"), wrong).status_code == 200
    assert client.post(reverse("login"), wrong).status_code == 429


def test_a_queued_tap_sent_again_is_answered_as_saved_from_redis(client, member, game):
    headers = {**HTMX, "X-Tap-Id": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}
    data = {"version": game.version, "seat": seats(game)[0].pk}
    assert client.post(url("may_i", game), data, headers=headers).status_code == 200
    again = client.post(url("may_i", game), data, headers=headers)
    assert again["X-Tap-Saved"] == "before"
    assert Event.objects.filter(kind=Event.Kind.MAY_I).count() == 1


def test_while_redis_is_away_polls_and_taps_are_503_and_nothing_is_saved(
    client, member, game, settings
):
    address, shown = following(client, game)
    settings.CACHES = {"default": cache_settings(f"redis://127.0.0.1:{free_port()}/0")}
    client.raise_request_exception = False
    polled = poll(client, address, shown)
    assert polled.status_code == 503 and polled["Retry-After"] == "10"
    data = {"version": game.version, "seat": seats(game)[0].pk}
    tapped = client.post(url("may_i", game), data, headers=HTMX)
    assert tapped.status_code == 503
    assert etag(game) == shown
    assert not Event.objects.filter(kind=Event.Kind.MAY_I).exists()
