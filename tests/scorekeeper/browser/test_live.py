"""A second screen follows the table: another tablet and the TV show a tap within two seconds,
and a tablet that loses its connection says so, loses no tap and never sends one twice."""

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Event, Game, Hand
from scorekeeper.services import hand_mark_down, tv_link_create
from tests.factories import make_game

pytestmark = pytest.mark.django_db(transaction=True)

TWO_SECONDS = 2_000
# What Chromium and htmx report about requests the cut network stopped, and a 409 refusal.
NETWORK_CUT = r"ERR_INTERNET_DISCONNECTED|htmx:sendError|htmx:afterRequest|status of 409"


@pytest.fixture
def game():
    return make_game(players=4)


@pytest.fixture
def member(game):
    return game.club.memberships.get().user


def row(page, name):
    return page.locator("form.player-row").filter(has=page.get_by_text(name, exact=True))


def names(game):
    return [seat.player.name for seat in game.seats.order_by("position").select_related("player")]


def open_table(open_tablet, log_in, member, game, **options):
    page = open_tablet(**options)
    log_in(page, member, at=game.get_absolute_url())
    return page


def coins_left(page, name):
    return row(page, name).locator(".coin:not(.spent)")


def test_a_tap_on_one_tablet_shows_on_another_and_on_the_tv_within_two_seconds(
    open_tablet, log_in, member, game
):
    first, second = names(game)[:2]
    tablet = open_table(open_tablet, log_in, member, game)
    other = open_table(open_tablet, log_in, member, game)
    tv = open_tablet(viewport={"width": 1280, "height": 720})
    tv.goto(tv_link_create(game=game, user=member).get_absolute_url())
    # While nothing changes, the other tablet's polls are answered 304 Not Modified.
    with other.expect_response(lambda response: "/live/" in response.url) as poll:
        pass
    assert poll.value.status == 304

    # A May I? token.
    row(tablet, first).get_by_role("button", name="May I?").click()
    expect(coins_left(other, first)).to_have_count(1, timeout=TWO_SECONDS)
    expect(tv.get_by_label("1 May I? left")).to_have_count(1, timeout=TWO_SECONDS)

    # Going down, then going out: the other tablet turns to score entry by itself.
    row(tablet, second).get_by_role("button", name="Went down").click()
    expect(row(other, second).locator(".badge.ok")).to_have_text("Down", timeout=TWO_SECONDS)
    expect(tv.locator("#tv-board .badge.ok")).to_have_text("Down", timeout=TWO_SECONDS)
    row(tablet, second).get_by_role("button", name="Went out").click()
    expect(other.locator("fieldset.hand-entry")).to_have_count(3, timeout=TWO_SECONDS)
    expect(tv.locator(".tv-news")).to_contain_text(f"{second} went out", timeout=TWO_SECONDS)

    # The scores: saved on one tablet, the totals show on the other and on the TV.
    for entry, points in zip(tablet.locator("fieldset.hand-entry").all(), [5, 10, 15], strict=True):
        entry.get_by_label("or points").fill(str(points))
    tablet.get_by_role("button", name="Save contract 1").click()
    expect(other.get_by_role("heading", level=1)).to_contain_text("Contract 2", timeout=TWO_SECONDS)
    expect(tv.locator(".tv-total")).to_have_text(["5", "0", "10", "15"], timeout=TWO_SECONDS)

    # The tablet that tapped follows the other one just the same, its taps all answered.
    row(other, first).get_by_role("button", name="May I?").click()
    expect(coins_left(tablet, first)).to_have_count(1, timeout=TWO_SECONDS)
    expect(tablet.locator("#connection")).to_be_hidden()


def test_the_screen_is_kept_awake_on_a_table_and_on_the_tv(open_tablet, log_in, member, game):
    tablet = open_table(open_tablet, log_in, member, game)
    expect(tablet.locator("html")).to_have_attribute("data-awake", "yes")
    tv = open_tablet()
    tv.goto(tv_link_create(game=game, user=member).get_absolute_url())
    expect(tv.locator("html")).to_have_attribute("data-awake", "yes")


def test_the_tv_link_is_made_copied_and_turned_off_on_the_round_screen(
    open_tablet, log_in, member, game
):
    tablet = open_table(open_tablet, log_in, member, game)
    tablet.context.grant_permissions(["clipboard-read", "clipboard-write"])
    tablet.get_by_role("button", name="Make a TV link").click()
    address = tablet.get_by_label("TV address").input_value()
    assert address.endswith(f"{game.tv_link.get_absolute_url()}")
    tablet.get_by_role("button", name="Copy").click()
    expect(tablet.get_by_role("button", name="Copied")).to_be_visible()
    assert tablet.evaluate("navigator.clipboard.readText()") == address

    tv = open_tablet(expected="404")
    tv.goto(address)
    expect(tv.locator(".tv-contract")).to_be_visible()
    expect(tv.get_by_role("button")).to_have_count(0)
    tablet.get_by_role("button", name="Turn the TV link off").click()
    expect(tablet.get_by_role("button", name="Make a TV link")).to_be_visible()
    # The TV's next poll finds the link gone and the page says so.
    expect(tv.locator(".tv-contract")).to_have_text("No scores here", timeout=TWO_SECONDS + 1_000)


def test_a_tap_made_offline_waits_and_is_sent_once_when_the_connection_is_back(
    open_tablet, log_in, member, game
):
    first = names(game)[0]
    tablet = open_table(open_tablet, log_in, member, game, expected=NETWORK_CUT)
    other = open_table(open_tablet, log_in, member, game)

    tablet.context.set_offline(True)
    banner = tablet.locator("#connection")
    expect(banner).to_have_text("No connection. Taps wait here and are sent once it is back.")
    expect(banner).to_have_attribute("role", "status")  # read out at once
    row(tablet, first).get_by_role("button", name="May I?").click()
    expect(banner).to_contain_text("Your tap waits")
    # It shows as made; the other buttons stay, for more taps to wait behind it, in order
    # (tests/scorekeeper/browser/test_offline.py).
    expect(row(tablet, first).locator(".coin.queued")).to_have_count(1)
    went_down = row(tablet, first).get_by_role("button", name="Went down")
    expect(went_down).to_be_enabled()
    tablet.wait_for_timeout(1_500)  # polls would have come and gone
    assert Hand.objects.filter(may_i_used__gt=0).count() == 0

    tablet.context.set_offline(False)
    expect(coins_left(tablet, first)).to_have_count(1)
    expect(coins_left(other, first)).to_have_count(1, timeout=TWO_SECONDS)
    expect(banner).to_be_hidden()
    expect(went_down).to_be_enabled()
    tablet.wait_for_timeout(1_500)  # nothing is sent a second time
    assert Event.objects.filter(kind=Event.Kind.MAY_I).count() == 1
    assert Hand.objects.get(may_i_used__gt=0).may_i_used == 1


def test_a_tap_made_offline_on_a_table_changed_meanwhile_is_refused_and_said_so(
    open_tablet, log_in, member, game
):
    first, second = names(game)[:2]
    tablet = open_table(open_tablet, log_in, member, game, expected=NETWORK_CUT)
    tablet.context.set_offline(True)
    expect(tablet.locator("#connection")).to_be_visible()
    row(tablet, first).get_by_role("button", name="May I?").click()
    # Meanwhile somebody else's tap changes the table.
    table = Game.objects.get()
    hand_mark_down(game=table, version=table.version, seat=table.seats.get(position=1), user=member)

    tablet.context.set_offline(False)
    alert = tablet.get_by_role("alert")
    expect(alert).to_contain_text("nothing was saved")
    expect(alert).to_contain_text("went down")
    expect(row(tablet, second).locator(".badge.ok")).to_have_text("Down")
    expect(coins_left(tablet, first)).to_have_count(2)
    assert not Event.objects.filter(kind=Event.Kind.MAY_I).exists()


def test_a_tap_whose_answer_the_cut_network_lost_is_not_sent_again(
    open_tablet, log_in, member, game
):
    first = names(game)[0]
    tablet = open_table(open_tablet, log_in, member, game, expected=NETWORK_CUT)

    def arrives_but_the_answer_is_lost(route):
        route.fetch()  # the server receives the tap and saves it
        route.abort("internetdisconnected")

    tablet.route("**/may-i/", arrives_but_the_answer_is_lost)
    row(tablet, first).get_by_role("button", name="May I?").click()
    expect(tablet.locator("#connection")).to_contain_text("tap again if your tap is not there")
    tablet.unroute("**/may-i/")
    # The next poll shows the tap as saved, once; the banner says the connection is back.
    expect(coins_left(tablet, first)).to_have_count(1, timeout=TWO_SECONDS)
    expect(tablet.locator("#connection")).to_contain_text("Connected again")
    tablet.wait_for_timeout(1_500)
    assert Event.objects.filter(kind=Event.Kind.MAY_I).count() == 1
