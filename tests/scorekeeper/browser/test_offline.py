"""A round screen opened once works with no connection (static/js/sw.js, live.js, tablet.js): it
loads again from the service worker, taps and whole score entries wait in order on the tablet
and are sent once each when the connection is back, and hands typed survive a reload until the
round is saved. What the tablet keeps that cannot be trusted is set aside with a note."""

import json
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

import rules
from scorekeeper.models import Event, Game, Hand, Round
from scorekeeper.services import hand_mark_down, round_score
from tests.factories import go_out, make_game, seats
from tests.scorekeeper.browser.conftest import TABLET
from tests.scorekeeper.browser.test_screens import axe_violations, small_targets, width_problems

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


def cut_off(tablet):
    """No connection: the browser says it is offline, and nothing it sends reaches the server,
    as on a tablet out of its network's reach. The route is needed as well: Chromium applies its
    emulated offline state to a reloaded page a moment after the page's scripts start, long
    enough for a waiting tap to go out (twice in 19 runs of the first test below)."""
    tablet.context.route("**/*", lambda route: route.abort("internetdisconnected"))
    tablet.context.set_offline(True)


def reconnect(tablet):
    tablet.context.unroute("**/*")
    tablet.context.set_offline(False)


def open_table(open_tablet, log_in, member, game):
    """The table opened online on a tablet whose service worker has kept it."""
    page = open_tablet(expected=NETWORK_CUT, service_workers="allow")
    log_in(page, member, at=game.get_absolute_url())
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

    cut_off(tablet)
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

    reconnect(tablet)
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
    cut_off(tablet)
    row(tablet, ann).get_by_role("button", name="May I?").click()
    row(tablet, ben).get_by_role("button", name="Went down").click()
    expect(tablet.locator("#connection")).to_contain_text("Your 2 taps wait")
    # Meanwhile another screen changes the table: the first tap was made on a table gone by.
    table = Game.objects.get()
    hand_mark_down(game=table, version=table.version, seat=seats(table)[2], user=member)

    reconnect(tablet)
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
    cut_off(tablet)
    row(tablet, ann).get_by_role("button", name="May I?").click()
    row(tablet, ben).get_by_role("button", name="Went out").click()
    expect(tablet.locator("fieldset.hand-entry")).to_have_count(3)
    tablet.get_by_role("button", name="Undo").click()
    expect(tablet.locator("#connection")).to_contain_text(f"Taken back before it was sent: {ben}")
    expect(tablet.locator("form.player-row")).to_have_count(4)
    expect(coins_left(tablet, ann)).to_have_count(1)  # the May I? still waits

    reconnect(tablet)
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
    tablet.context.set_offline(True)  # no reload while offline: the emulation is enough
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
    cut_off(tablet)
    tablet.reload()  # the worker's copy is of the table before the May I?; the newer one shows
    expect(coins_left(tablet, ann)).to_have_count(1)
    row(tablet, ann).get_by_role("button", name="May I?").click()
    expect(coins_left(tablet, ann)).to_have_count(0)
    reconnect(tablet)
    expect(row(tablet, ann).locator(".coin.queued")).to_have_count(0)  # the server's table
    expect(coins_left(tablet, ann)).to_have_count(0)
    tablet.wait_for_timeout(1_000)
    assert Hand.objects.get(seat__player__name=ann).may_i_used == 2
    assert not tablet.get_by_role("alert").count()


def test_a_page_not_kept_says_there_is_no_connection(open_tablet, log_in, member, game):
    tablet = open_table(open_tablet, log_in, member, game)
    cut_off(tablet)
    tablet.goto(reverse("history", args=[game.pk]))
    expect(tablet.get_by_role("heading", level=1)).to_have_text("No connection")


def test_logging_out_forgets_the_pages_and_everything_kept(open_tablet, log_in, member, game):
    tablet = open_table(open_tablet, log_in, member, game)
    tablet.evaluate("localStorage.setItem('sk:draft:999', '{}')")
    tablet.get_by_role("button", name=re.compile("Log out")).click()
    tablet.wait_for_url(re.compile("/accounts/login/"))
    assert tablet.evaluate("Object.keys(localStorage)") == []
    cut_off(tablet)
    tablet.goto(game.get_absolute_url())
    expect(tablet.get_by_role("heading", level=1)).to_have_text("No connection")


def test_log_out_tapped_with_no_connection_keeps_the_taps_that_wait(
    open_tablet, log_in, member, game
):
    tablet = open_table(open_tablet, log_in, member, game)
    cut_off(tablet)
    row(tablet, names(game)[0]).get_by_role("button", name="May I?").click()
    tablet.get_by_role("button", name=re.compile("Log out")).click()  # fails: no connection
    expect(tablet.get_by_role("heading", level=1)).to_have_text("No connection")
    tablet.go_back()
    reconnect(tablet)
    tablet.reload()
    expect(coins_left(tablet, names(game)[0])).to_have_count(1)
    tablet.wait_for_timeout(1_000)
    assert count(Event.Kind.MAY_I) == 1


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


# ---- Hands typed on the score entry, kept as a draft until the round is saved ----


@pytest.fixture
def scoring(game):
    """The table with Ben out of contract 1: its score entry is open."""
    go_out(game, seats(game)[1])
    return game


def type_a_round(page):
    """K 7 tapped for the first player, 5 typed for the second, 20 points for the third."""
    entries = page.locator("fieldset.hand-entry")
    for rank in ["K", "7"]:
        entries.nth(0).get_by_role("button", name=rank, exact=True).click()
    entries.nth(1).get_by_label("Cards", exact=True).fill("5")
    entries.nth(2).get_by_label("or points").fill("20")
    expect(entries.locator(".hand-total")).to_have_text(["15 pts", "5 pts", "20 pts"])


def expect_the_round_typed(page):
    entries = page.locator("fieldset.hand-entry")
    expect(entries.nth(0).locator(".cards-input")).to_have_value("K 7")
    expect(entries.nth(1).locator(".cards-input")).to_have_value("5")
    expect(entries.nth(2).get_by_label("or points")).to_have_value("20")
    expect(entries.locator(".hand-total")).to_have_text(["15 pts", "5 pts", "20 pts"])
    expect(entries.nth(0).locator(".card-chips .chip")).to_have_text(["K", "7"])


def test_hands_typed_survive_a_reload_with_a_note_and_clear_forgets_them(
    open_tablet, log_in, member, scoring
):
    tablet = open_tablet()
    log_in(tablet, member, at=scoring.get_absolute_url())
    type_a_round(tablet)
    tablet.reload()
    expect_the_round_typed(tablet)
    restored = tablet.locator(".draft-note")
    expect(restored).to_have_text(
        re.compile(r"^Restored the hands you typed at \d\d:\d\d — Clear$")
    )
    expect(restored).to_have_attribute("role", "status")

    restored.get_by_role("button", name="Clear").click()
    expect(tablet.locator("fieldset.hand-entry .cards-input")).to_have_count(3)
    for box in tablet.locator("fieldset.hand-entry input").all():
        expect(box).to_have_value("")
    expect(restored).to_have_count(0)
    tablet.reload()
    expect(tablet.locator(".draft-note")).to_have_count(0)
    expect(tablet.locator("fieldset.hand-entry .cards-input").first).to_have_value("")
    assert not Event.objects.filter(kind=Event.Kind.ROUND_SCORED).exists()


def test_hands_typed_survive_a_lost_connection_and_a_reload_and_go_once_saved(
    open_tablet, log_in, member, scoring
):
    tablet = open_table(open_tablet, log_in, member, scoring)
    cut_off(tablet)
    type_a_round(tablet)
    tablet.reload()  # the service worker's copy
    expect_the_round_typed(tablet)
    expect(tablet.locator(".draft-note")).to_contain_text("Restored the hands you typed")

    reconnect(tablet)
    tablet.get_by_role("button", name=re.compile("Save contract 1")).click()
    expect(tablet.get_by_role("heading", level=1)).to_contain_text("Contract 2 of 7")
    expect(tablet.locator("#table-notes p")).to_have_count(0)  # saved here: nothing to say
    assert tablet.evaluate(f"localStorage.getItem('sk:draft:{scoring.pk}')") is None
    first = Round.objects.get(number=1)
    assert sorted(hand.points for hand in first.hands.all()) == [0, 5, 15, 20]


def test_hands_typed_for_a_round_saved_on_another_screen_are_dropped_with_a_note(
    open_tablet, log_in, member, scoring
):
    tablet = open_tablet()
    log_in(tablet, member, at=scoring.get_absolute_url())
    type_a_round(tablet)
    # Another tablet saves contract 1 meanwhile.
    table = Game.objects.get()
    others = [seat for seat in seats(table) if seat.position != 1]
    entries = {seat.pk: rules.HandEntry(points=10) for seat in others}
    round_score(game=table, version=table.version, entries=entries, user=member)

    expect(tablet.get_by_role("heading", level=1)).to_contain_text("Contract 2 of 7")
    expect(tablet.locator("#table-notes")).to_contain_text(
        "The hands typed here for contract 1 were not restored: "
        "contract 1 was saved on another screen meanwhile."
    )
    assert tablet.evaluate(f"localStorage.getItem('sk:draft:{scoring.pk}')") is None
    # Never put into the next round.
    row(tablet, names(scoring)[2]).get_by_role("button", name="Went out").click()
    expect(tablet.locator("fieldset.hand-entry")).to_have_count(3)
    for box in tablet.locator("fieldset.hand-entry input").all():
        expect(box).to_have_value("")
    assert sorted(hand.points for hand in Round.objects.get(number=1).hands.all()) == [
        0,
        10,
        10,
        10,
    ]


def kept_draft(game, member, **changes):
    """What tablet.js keeps for hands typed in contract 1, with `changes` made to it."""
    round_ = game.rounds.get(number=1)
    seat = seats(game)[0]
    draft = {
        "app": "scorekeeper",
        "format": 1,
        "table": game.pk,
        "user": member.pk,
        "contract": 1,
        "round": round_.pk,
        "version": game.version,
        "savedAt": 1_700_000_000_000,
        "hands": {str(seat.pk): {"cards": "K 7", "points": "", "unsure": ""}},
    }
    return draft | changes


DRAFTS = {
    "unreadable": (lambda game, member: "[[[", "could not be read"),
    "another version": (
        lambda game, member: kept_draft(game, member, format=0),
        "by another version of the app",
    ),
    "another table": (
        lambda game, member: kept_draft(game, member, table=game.pk + 1),
        "for another table",
    ),
    "hands of a wrong shape": (
        lambda game, member: kept_draft(game, member, hands=[["K 7"]]),
        "could not be read",
    ),
    "a hand of a wrong shape": (
        lambda game, member: kept_draft(
            game, member, hands={"1": {"cards": 7, "points": "", "unsure": ""}}
        ),
        "could not be read",
    ),
    "points that are no number": (
        lambda game, member: kept_draft(
            game, member, hands={"1": {"cards": "", "points": "1e9", "unsure": ""}}
        ),
        "could not be read",
    ),
}


@pytest.mark.parametrize("case", DRAFTS)
def test_hands_kept_that_cannot_be_trusted_are_set_aside_with_a_note_and_never_restored(
    open_tablet, log_in, member, scoring, case
):
    kept, words = DRAFTS[case]
    tablet = open_tablet()
    log_in(tablet, member)
    keep_and_open(tablet, scoring, f"sk:draft:{scoring.pk}", kept(scoring, member))
    expect(tablet.locator("#table-notes")).to_contain_text(words)
    expect(tablet.locator("#table-notes")).to_contain_text("not restored")
    for box in tablet.locator("fieldset.hand-entry input").all():
        expect(box).to_have_value("")
    assert tablet.evaluate(f"localStorage.getItem('sk:draft:{scoring.pk}')") is None
    assert not Event.objects.filter(kind=Event.Kind.ROUND_SCORED).exists()


def test_hands_kept_as_they_should_be_are_restored(open_tablet, log_in, member, scoring):
    # The same draft as above, untouched: what they would have restored.
    tablet = open_tablet()
    log_in(tablet, member)
    keep_and_open(tablet, scoring, f"sk:draft:{scoring.pk}", kept_draft(scoring, member))
    expect(tablet.locator("fieldset.hand-entry .cards-input").first).to_have_value("K 7")
    expect(tablet.locator(".draft-note")).to_contain_text("Restored the hands you typed on")
    expect(tablet.locator("#table-notes p")).to_have_count(0)


def test_hands_another_account_typed_here_are_not_restored(open_tablet, log_in, member, scoring):
    tablet = open_tablet()
    log_in(tablet, member)
    kept = kept_draft(scoring, member, user=member.pk + 1)
    keep_and_open(tablet, scoring, f"sk:draft:{scoring.pk}", kept)
    tablet.wait_for_timeout(500)
    expect(tablet.locator("fieldset.hand-entry .cards-input").first).to_have_value("")
    assert tablet.evaluate(f"localStorage.getItem('sk:draft:{scoring.pk}')") is None


def test_the_offline_score_entry_and_the_notes_have_nothing_for_axe_to_flag(open_tablet, log_in):
    game = make_game(players=5)
    tablet = open_table(open_tablet, log_in, game.club.memberships.get().user, game)
    cut_off(tablet)
    tablet.reload()
    first, second = names(game)[:2]
    row(tablet, first).get_by_role("button", name="May I?").click()
    row(tablet, second).get_by_role("button", name="Went out").click()
    entries = tablet.locator("fieldset.hand-entry")
    expect(entries).to_have_count(4)
    entries.nth(0).get_by_role("button", name="K", exact=True).click()
    tablet.reload()  # the draft's note, and the undo bar's
    expect(tablet.locator(".draft-note")).to_be_visible()
    tablet.evaluate("window.tableNote('A note about what this tablet kept.')")
    assert width_problems(tablet) + small_targets(tablet) == []
    assert axe_violations(tablet) == []


def test_five_players_hands_restored_fit_a_landscape_tablet_with_the_save_button(
    open_tablet, log_in
):
    game = make_game(players=5)
    go_out(game, seats(game)[0])
    tablet = open_tablet()
    log_in(tablet, game.club.memberships.get().user, at=game.get_absolute_url())
    tablet.locator("fieldset.hand-entry").nth(0).get_by_label("or points").fill("10")
    tablet.reload()
    expect(tablet.locator(".draft-note")).to_be_visible()
    save = tablet.get_by_role("button", name=re.compile("Save contract 1"))
    box = save.bounding_box()
    assert box["y"] + box["height"] <= TABLET["height"], box
    assert tablet.evaluate("() => document.documentElement.scrollTop") == 0


def test_a_shanghai_with_no_connection_shows_as_a_claim_or_a_protect(
    open_tablet, log_in, member, game
):
    ann = names(game)[0]
    tablet = open_table(open_tablet, log_in, member, game)
    cut_off(tablet)
    row(tablet, ann).locator("summary", has_text="Shanghai!").click()
    row(tablet, ann).get_by_role("button", name="Protected own discard").click()
    expect(row(tablet, ann).locator(".badge.protects")).to_have_text("1 Shanghai protect")
    expect(row(tablet, ann).locator(".badge.claims")).to_have_count(0)
    reconnect(tablet)
    expect(row(tablet, ann).locator(".badge.protects.queued")).to_have_count(0)  # the server's
    expect(row(tablet, ann).locator(".badge.protects")).to_have_text("1 Shanghai protect")
    assert count(Event.Kind.SHANGHAI_PROTECT) == 1
