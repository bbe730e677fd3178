"""A round screen opened once works with no connection (static/js/sw.js, live.js, app.js): it
loads again from the service worker, taps and whole score entries wait in order on the tablet
and are sent once each when the connection is back, and hands typed survive a reload until the
round is saved. What the tablet keeps that cannot be trusted is set aside with a note."""

import json
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scorekeeper.models import Event, Game, Hand, Round
from scorekeeper.services import hand_mark_down
from tests.factories import make_game, seats

pytestmark = pytest.mark.django_db(transaction=True)

# What Chromium and htmx report about requests the cut network stopped, and a 409 refusal.
NETWORK_CUT = r"ERR_INTERNET_DISCONNECTED|htmx:sendError|htmx:afterRequest|status of (409|503)"
OFFLINE = "No connection. Taps wait here and are sent once it is back."
TWO_SECONDS = 2_000


@pytest.fixture
def game():
    return make_game(players=4)


@pytest.fixture
def member(game):
    return game.club.memberships.get().user


def names(game):
    return [seat.player.name for seat in seats(game)]


def row(page, name):
    return page.locator("form.player-row").filter(has=page.get_by_text(name, exact=True))


def coins_left(page, name):
    return row(page, name).locator(".coin:not(.spent)")


def open_table(open_tablet, log_in, member, game):
    """The table opened online on a tablet whose service worker has kept it."""
    page = open_tablet(expected=NETWORK_CUT, service_workers="allow")
    log_in(page, member)
    page.goto(game.get_absolute_url())
    expect(page.locator("html")).to_have_attribute("data-offline", "ready")
    return page


def type_hands(page, *ranks):
    entries = page.locator("fieldset.hand-entry")
    for index in range(entries.count()):
        for rank in ranks:
            entries.nth(index).get_by_role("button", name=rank, exact=True).click()


def count(kind):
    return Event.objects.filter(kind=kind).count()


def test_a_table_opened_once_is_played_and_scored_offline_and_each_tap_is_saved_once(
    open_tablet, log_in, member, game
):
    ann, ben = names(game)[:2]
    start = game.version
    tablet = open_table(open_tablet, log_in, member, game)
    banner = tablet.locator("#connection")

    tablet.context.set_offline(True)
    tablet.reload()  # answered by the service worker
    expect(tablet.get_by_role("heading", level=1)).to_contain_text("Contract 1 of 7")
    expect(banner).to_have_text(OFFLINE)

    row(tablet, ann).get_by_role("button", name="May I?").click()
    expect(coins_left(tablet, ann)).to_have_count(1)
    expect(banner).to_contain_text("Your tap waits")
    row(tablet, ben).get_by_role("button", name="Went out").click()
    entries = tablet.locator("fieldset.hand-entry")
    expect(entries).to_have_count(3)
    expect(tablet.locator(".score-entry h2")).to_contain_text(f"{ben} went out")
    type_hands(tablet, "K", "7")
    expect(entries.locator(".hand-total")).to_have_text(["15 pts"] * 3)
    tablet.get_by_role("button", name=re.compile("Save contract 1")).click()
    expect(banner).to_contain_text("Your 3 taps wait")
    expect(tablet.locator(".queued-note")).to_be_visible()

    # The queue survives a reload with no connection, shown as it was left.
    tablet.reload()
    expect(entries).to_have_count(3)
    for index in range(3):
        expect(entries.nth(index).locator(".cards-input")).to_have_value("K 7")
    expect(banner).to_contain_text("Your 3 taps wait")
    tablet.wait_for_timeout(1_000)
    assert Game.objects.get().version == start
    assert not Event.objects.exists()

    tablet.context.set_offline(False)
    expect(tablet.get_by_role("heading", level=1)).to_contain_text("Contract 2 of 7")
    expect(tablet.locator(".scoreboard tbody tr").first).to_contain_text("15")
    expect(banner).to_be_hidden()
    tablet.wait_for_timeout(1_500)  # nothing is sent a second time
    assert Game.objects.get().version == start + 3
    assert count(Event.Kind.MAY_I) == count(Event.Kind.WENT_OUT) == 1
    assert count(Event.Kind.ROUND_SCORED) == 1
    first = Round.objects.get(number=1)
    assert first.went_out.player.name == ben
    assert sorted(hand.cards for hand in first.hands.exclude(seat=first.went_out)) == ["K 7"] * 3
    assert Hand.objects.get(round=first, seat__player__name=ann).may_i_used == 1
    # The answers were kept: nothing waits, no draft is left.
    assert tablet.evaluate("Object.keys(localStorage).filter((key) => key.startsWith('sk:'))") == []


def test_a_refused_tap_shows_the_fresh_table_and_why_and_the_rest_is_dropped_with_a_note(
    open_tablet, log_in, member, game
):
    ann, ben, cleo = names(game)[:3]
    tablet = open_table(open_tablet, log_in, member, game)
    tablet.context.set_offline(True)
    row(tablet, ann).get_by_role("button", name="May I?").click()
    row(tablet, ben).get_by_role("button", name="Went down").click()
    expect(tablet.locator("#connection")).to_contain_text("Your 2 taps wait")
    # Meanwhile another screen changes the table: the first tap was made on a table gone by.
    table = Game.objects.get()
    hand_mark_down(game=table, version=table.version, seat=seats(table)[2], user=member)

    tablet.context.set_offline(False)
    alert = tablet.get_by_role("alert")
    expect(alert).to_contain_text(f"On another screen a moment ago: {cleo} went down")
    expect(alert).to_contain_text("nothing was saved")
    note = tablet.locator("#table-notes")
    expect(note).to_contain_text("1 more tap made with no connection was not sent")
    expect(note).to_contain_text(f"{ben} went down")
    expect(coins_left(tablet, ann)).to_have_count(2)
    expect(row(tablet, ben).locator(".badge.ok")).to_have_count(0)
    tablet.wait_for_timeout(1_500)
    assert not Event.objects.filter(kind=Event.Kind.MAY_I).exists()
    assert count(Event.Kind.WENT_DOWN) == 1  # Cleo's
    assert tablet.evaluate("Object.keys(localStorage).filter((key) => key.startsWith('sk:'))") == []
    note.get_by_role("button", name="Dismiss").click()
    expect(note.locator("p")).to_have_count(0)


def test_undo_with_no_connection_takes_back_the_last_tap_that_waits(
    open_tablet, log_in, member, game
):
    ann, ben = names(game)[:2]
    tablet = open_table(open_tablet, log_in, member, game)
    tablet.context.set_offline(True)
    row(tablet, ann).get_by_role("button", name="May I?").click()
    row(tablet, ben).get_by_role("button", name="Went out").click()
    expect(tablet.locator("fieldset.hand-entry")).to_have_count(3)
    tablet.get_by_role("button", name="Undo").click()
    expect(tablet.locator("#connection")).to_contain_text(f"Taken back before it was sent: {ben}")
    expect(tablet.locator("form.player-row")).to_have_count(4)
    expect(coins_left(tablet, ann)).to_have_count(1)  # the May I? still waits

    tablet.context.set_offline(False)
    expect(row(tablet, ann).locator(".coin.queued")).to_have_count(0)  # the server's table
    expect(coins_left(tablet, ann)).to_have_count(1)
    tablet.wait_for_timeout(1_500)
    assert count(Event.Kind.MAY_I) == 1
    assert not Event.objects.filter(kind=Event.Kind.WENT_OUT).exists()


def test_a_tap_whose_answer_was_lost_is_sent_again_after_a_reload_and_counts_once(
    open_tablet, log_in, member, game
):
    ann, ben = names(game)[:2]
    tablet = open_table(open_tablet, log_in, member, game)
    tablet.context.set_offline(True)
    row(tablet, ann).get_by_role("button", name="May I?").click()
    row(tablet, ben).get_by_role("button", name="Went down").click()

    def arrives_but_the_answer_is_lost(route):
        route.fetch()  # the server receives the tap and saves it
        route.abort("internetdisconnected")

    tablet.context.route("**/may-i/", arrives_but_the_answer_is_lost)
    tablet.context.set_offline(False)
    expect(tablet.locator("#connection")).to_contain_text("The connection dropped while sending")
    assert count(Event.Kind.MAY_I) == 1
    tablet.context.unroute("**/may-i/")
    # The page is reloaded before the tablet tries again: the May I? goes again, with its id.
    tablet.reload()
    expect(row(tablet, ben).locator(".badge.ok")).to_have_text("Down")
    expect(tablet.locator("#connection")).to_be_hidden()
    tablet.wait_for_timeout(1_500)
    assert count(Event.Kind.MAY_I) == count(Event.Kind.WENT_DOWN) == 1
    assert Hand.objects.get(seat__player__name=ann, round__number=1).may_i_used == 1


def test_a_round_screen_loaded_with_no_connection_shows_the_last_table_seen(
    open_tablet, log_in, member, game
):
    ann = names(game)[0]
    tablet = open_table(open_tablet, log_in, member, game)
    row(tablet, ann).get_by_role("button", name="May I?").click()  # online: saved at once
    expect(coins_left(tablet, ann)).to_have_count(1)
    tablet.context.set_offline(True)
    tablet.reload()  # the worker's copy is of the table before the May I?; the newer one shows
    expect(coins_left(tablet, ann)).to_have_count(1)
    row(tablet, ann).get_by_role("button", name="May I?").click()
    expect(coins_left(tablet, ann)).to_have_count(0)
    tablet.context.set_offline(False)
    expect(row(tablet, ann).locator(".coin.queued")).to_have_count(0)  # the server's table
    expect(coins_left(tablet, ann)).to_have_count(0)
    tablet.wait_for_timeout(1_000)
    assert Hand.objects.get(seat__player__name=ann).may_i_used == 2
    assert not tablet.get_by_role("alert").count()


def test_a_page_not_kept_says_there_is_no_connection(open_tablet, log_in, member, game):
    tablet = open_table(open_tablet, log_in, member, game)
    tablet.context.set_offline(True)
    tablet.goto(reverse("history", args=[game.pk]))
    expect(tablet.get_by_role("heading", level=1)).to_have_text("No connection")


def test_logging_out_forgets_the_pages_kept(open_tablet, log_in, member, game):
    tablet = open_table(open_tablet, log_in, member, game)
    tablet.get_by_role("button", name=re.compile("Log out")).click()
    tablet.wait_for_url(re.compile("/accounts/login/"))
    tablet.context.set_offline(True)
    tablet.goto(game.get_absolute_url())
    expect(tablet.get_by_role("heading", level=1)).to_have_text("No connection")


def kept_queue(game, member, **changes):
    """What live.js keeps for a May I? made with no connection, with `changes` made to it."""
    seat = seats(game)[0]
    item = {
        "id": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
        "kind": "may-i",
        "url": f"/tables/{game.pk}/may-i/",
        "version": game.version,
        "label": f"{seat.player.name}: May I?",
        "state": "waiting",
        "fields": [["seat", str(seat.pk)]],
    }
    item |= changes.pop("item", {})
    queue = {"app": "scorekeeper", "format": 1, "table": game.pk, "user": member.pk}
    return queue | {"items": [item]} | changes


QUEUES = {
    "unreadable": (lambda game, member: "{not json", "could not be read"),
    "another version": (
        lambda game, member: kept_queue(game, member, format=2),
        "by another version of the app",
    ),
    "another table": (
        lambda game, member: kept_queue(game, member, table=game.pk + 1),
        "for another table",
    ),
    "another account": (
        lambda game, member: kept_queue(game, member, user=member.pk + 1),
        "by another account",
    ),
    "a tampered address": (
        lambda game, member: kept_queue(
            game, member, item={"url": f"/tables/{game.pk}/delete/", "kind": "may-i"}
        ),
        "could not be read",
    ),
    "a tampered field": (
        lambda game, member: kept_queue(game, member, item={"fields": [["version", "0"]]}),
        "could not be read",
    ),
    "a wrong shape": (lambda game, member: kept_queue(game, member, items={}), "could not be read"),
}


def keep_and_open(page, game, key, value):
    """Open the table with `value` kept under `key`, set from another page of the site: the
    table's own page would read it within a second."""
    stored = value if isinstance(value, str) else json.dumps(value)
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, stored])
    page.goto(game.get_absolute_url())


@pytest.mark.parametrize("case", QUEUES)
def test_taps_kept_that_cannot_be_trusted_are_set_aside_with_a_note_and_never_sent(
    open_tablet, log_in, member, game, case
):
    kept, words = QUEUES[case]
    tablet = open_tablet()
    log_in(tablet, member)
    keep_and_open(tablet, game, f"sk:queue:{game.pk}", kept(game, member))
    expect(tablet.locator("#table-notes")).to_contain_text(words)
    expect(tablet.locator("#table-notes")).to_contain_text("not sent")
    tablet.wait_for_timeout(1_500)
    assert not Event.objects.exists()
    assert Game.objects.get().version == game.version
    assert tablet.evaluate(f"localStorage.getItem('sk:queue:{game.pk}')") is None


def test_a_tap_kept_as_it_should_be_is_sent_once_when_the_page_loads(
    open_tablet, log_in, member, game
):
    # The same queue as above, untouched: what they would have sent.
    tablet = open_tablet()
    log_in(tablet, member)
    keep_and_open(tablet, game, f"sk:queue:{game.pk}", kept_queue(game, member))
    expect(coins_left(tablet, names(game)[0])).to_have_count(1)
    tablet.reload()
    tablet.wait_for_timeout(1_500)
    assert count(Event.Kind.MAY_I) == 1
    expect(tablet.locator("#table-notes p")).to_have_count(0)
