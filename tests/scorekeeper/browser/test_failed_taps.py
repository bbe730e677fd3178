"""A tap answered with an error (4xx or 5xx, which htmx does not swap in) says so in the banner,
politely (a live region), instead of the button coming back as if nothing had happened."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Event
from tests.factories import make_game

pytestmark = pytest.mark.django_db(transaction=True)

# What Chromium and htmx report about an error answer.
ERROR_ANSWER = r"status of (403|502)|Response Status Error Code (403|502)"


@pytest.fixture
def game():
    return make_game(players=4)


def open_table(open_tablet, log_in, game):
    page = open_tablet(expected=ERROR_ANSWER)
    log_in(page, game.club.memberships.get().user, at=game.get_absolute_url())
    return page


def tap_may_i(page, game):
    first = game.seats.order_by("position").select_related("player").first().player.name
    row = page.locator("form.player-row").filter(has=page.get_by_text(first, exact=True))
    row.get_by_role("button", name="May I?").click()


def test_a_tap_the_server_refuses_says_it_was_not_saved(open_tablet, log_in, game):
    tablet = open_table(open_tablet, log_in, game)
    # A real refusal by the app: without its CSRF cookie (cleared as a browser may) a write is 403.
    tablet.context.clear_cookies(name="csrftoken")
    tap_may_i(tablet, game)
    banner = tablet.locator("#connection")
    expect(banner).to_have_text(
        "Your tap was not saved: the server refused it. Reload the page and try again."
    )
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("aria-live", "polite")
    assert not Event.objects.filter(kind=Event.Kind.MAY_I).exists()


def test_a_tap_answered_by_a_server_error_says_to_try_again(open_tablet, log_in, game):
    tablet = open_table(open_tablet, log_in, game)
    # What the reverse proxy in front of the app answers while it restarts.
    tablet.route("**/may-i/", lambda route: route.fulfill(status=502, body="Bad Gateway"))
    tap_may_i(tablet, game)
    banner = tablet.locator("#connection")
    expect(banner).to_have_text(
        "Your tap was not saved: the server had a problem. Try again in a moment."
    )
    # The polls that follow (answered normally) do not hide it before it was read.
    tablet.wait_for_timeout(2_500)
    expect(banner).to_be_visible()
    tablet.unroute("**/may-i/")
    tap_may_i(tablet, game)
    expect(tablet.locator("form.player-row .coin.spent")).to_have_count(1)
    assert Event.objects.filter(kind=Event.Kind.MAY_I).count() == 1
