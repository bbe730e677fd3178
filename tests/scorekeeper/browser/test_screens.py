"""Every page type at a phone's, a portrait tablet's and a landscape tablet's size, light and dark:
nothing scrolls sideways, every touch target is 44 px or more, and axe-core finds no serious or
critical accessibility violation."""

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.urls import get_resolver, resolve, reverse
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.actions import TAPS
from scorekeeper.models import Hand, Photo
from tests.factories import (
    ANONYMOUS_PAGES,
    act,
    make_club,
    make_game,
    make_player,
    make_tables,
    make_user,
    seats,
)

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1024, "height": 768}
SIZES = {"phone": PHONE, "portrait": PORTRAIT, "landscape": LANDSCAPE}
SCHEMES = ["light", "dark"]
# axe-core runs at two sizes: a tablet's and a phone's layout (the portrait tablet's is between).
AXE_SIZES = ("landscape", "phone")
AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SCRIPT = AXE.read_text()
# The axe-core rules whose verdict depends on the colours shown.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


# What has a name in the URLs but is no page: writes (POST only), files and pictures, what a page
# fetches into itself (polls, previews, fragments), and the server's own addresses.
NOT_PAGES = {
    *("healthz", "healthz_tasks", "security_txt", "logout", "account_delete", "sessions_end"),
    *("account_language",),
    *("club_join", "player_add", "season_add", "club_time_zone", "club_tablet_idle"),
    *("club_recount",),
    *("club_recounting", "invite_set", "invite_rotate", "club_leave", "member_role"),
    *("member_remove", "season_close", "season_share", "season_unshare", "play_again"),
    *("club_export_json", "club_export_csv", "season_export_csv", "photo", "photo_delete"),
    *("game_live", "tv_link_create", "tv_link_revoke", "score", "undo", "score_photo"),
    *("melds_record", "lay_off", "table_photo"),
    *(tap.name for tap in TAPS.values()),  # the round screen's taps (scorekeeper/actions.py)
    *("photo_reading", "cards_preview", "count_check", "checker_photo", "checker_photo_reading"),
    *("tonight_tv_link_create", "tonight_tv_link_revoke", "service_worker"),
    *("two_factor_codes", "two_factor_disable", "player_me", "player_unlink"),
    # Pictures (test_views_sheets), not pages.
    *("game_sheet", "tonight_sheet"),
}

# What a finger taps: buttons, links styled as buttons, menus and boxes (checkboxes and radios
# are tapped through their labels).
TARGETS = (
    "button, [role=button], select, summary, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox]):not([type=file])"
)


def ask(page, question, cards):
    page.get_by_label("Cards", exact=True).fill(cards)
    page.get_by_label(question).check()
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.locator("#answer .verdict")).to_be_visible()


def width_problems(page) -> list[str]:
    """What makes the page wider than the screen, if it is."""
    return page.evaluate(
        """() => {
          const limit = document.documentElement.clientWidth;
          if (document.documentElement.scrollWidth <= limit) return [];
          return [...document.querySelectorAll("body *")]
            .filter((el) => el.getBoundingClientRect().right > limit + 0.5)
            .slice(0, 5)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className} ends at `
              + `${Math.round(el.getBoundingClientRect().right)} px of ${limit}`);
        }"""
    )


def small_targets(page) -> list[str]:
    """Visible touch targets under 44 px tall or wide."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
          .filter((el) => el.checkVisibility() && !el.closest(".photo svg"))
          .map((el) => [el, el.getBoundingClientRect()])
          .filter(([el, box]) => box.height < 43.5 || box.width < 43.5)
          .map(([el, box]) => `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 20)}"`
            + ` ${Math.round(box.width)}x${Math.round(box.height)}`).slice(0, 5)""",
        TARGETS,
    )


def axe_violations(page, *, colours_only=False) -> list[str]:
    """Serious and critical violations found by axe-core, run in the page by the test only:
    every rule, or only those that read colours."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(AXE_SCRIPT)
    options = {"resultTypes": ["violations"]}
    if colours_only:
        options["runOnly"] = {"type": "rule", "values": COLOUR_RULES}
    results = page.evaluate("(options) => axe.run(document, options)", options)
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']}"
        for violation in results["violations"]
        if violation["impact"] in ("serious", "critical")
        for node in violation["nodes"][:3]
    ]


def visit(page, name, url):
    page.goto(url)
    if name == "checker":
        ask(page, "What could I lay down?", "7H 7S 7D KC KD KS 4H")
    elif name == "table checker":
        ask(page, "Can I go down?", "8H 8S 8D | QC QD QS")


@pytest.fixture
def signed_in(chromium, live_server):
    """A user with the tables laid, and the signed-in browser state to open contexts with."""
    user = make_user("a-rather-long-username-for-a-phone")
    pages = make_tables(
        user,
        club="The long-named Thursday evening card club of Upper Wickham",
        players=["Annabel", "Benedikt", "Cleopatra", "Dev", "Evangelina"],
    )
    context = chromium.new_context(base_url=live_server.url)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("/")
    state = context.storage_state()
    context.close()
    return pages, state


def open_page(chromium, live_server, size, state=None):
    # Reduced motion: the colours of a scheme are there as soon as it is chosen, not at the end
    # of Pico's transitions.
    context = chromium.new_context(
        viewport=SIZES[size],
        base_url=live_server.url,
        has_touch=True,
        storage_state=state,
        reduced_motion="reduce",
    )
    context.set_default_timeout(10_000)
    return context, context.new_page()


# The pages are checked in parts, one test each, which workers can run side by side.
PARTS = 3


def every_page(chromium, live_server, signed_in, part):
    """(name, page) for every PARTS-th page of the app from `part` on, each opened once in a
    landscape tablet's browser: the member's pages signed in, then a visitor's."""
    pages, state = signed_in
    for addresses, signed_in_state in [(pages, state), (ANONYMOUS_PAGES, None)]:
        context, page = open_page(chromium, live_server, "landscape", signed_in_state)
        for name, url in list(addresses.items())[part::PARTS]:
            visit(page, name, url)
            yield name, page
        context.close()


def in_each_scheme(page):
    """Each colour scheme in turn, on the page as it is (a scheme changes no layout, so the page
    is not loaded again); light again after."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        yield scheme
    page.emulate_media(color_scheme="light")


def test_the_screens_cover_every_page():
    pages = make_tables(make_user(), club="Club", players=["Ann", "Ben", "Cleo", "Dev", "Eve"])
    shown = [*pages.values(), *ANONYMOUS_PAGES.values()]
    covered = {resolve(urlsplit(address).path).url_name for address in shown}
    named = {name for name in get_resolver().reverse_dict if isinstance(name, str)}
    assert not NOT_PAGES - named, "no longer a name in the URLs"
    assert not covered & NOT_PAGES
    assert named - NOT_PAGES - covered == set(), "pages the screen tests do not visit"


@pytest.mark.parametrize("part", range(PARTS))
def test_every_page_fits_the_screen_with_big_enough_targets_and_is_accessible(
    chromium, live_server, signed_in, part
):
    """Each page loaded once and checked at each size (the screen resized, as a tablet is
    turned) in both schemes: nothing scrolls sideways and every target is big enough; at the
    landscape tablet's and the phone's sizes, axe-core runs every rule in the light scheme and,
    in the dark one, the rules that read colours (the others read the page's structure, which a
    scheme does not change)."""
    problems = {}
    for name, page in every_page(chromium, live_server, signed_in, part):
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            for scheme in in_each_scheme(page):
                found = width_problems(page) + small_targets(page)
                if size in AXE_SIZES:
                    found += axe_violations(page, colours_only=scheme != "light")
                if found:
                    problems[f"{name} at {size} ({scheme})"] = found
    assert not problems, "\n".join(f"{name}: {found}" for name, found in problems.items())


def test_five_players_score_entry_and_round_fit_one_landscape_tablet(tablet, log_in):
    """Four hands to enter and the save button on one 1024x768 screen; on the round screen every
    player's buttons are on screen too."""
    page = tablet
    game = make_game(players=5)
    log_in(page, game.club.memberships.get().user, at=game.get_absolute_url())
    went_out = page.get_by_role("button", name="Went out", exact=True)
    expect(went_out).to_have_count(5)
    for index in range(5):
        assert went_out.nth(index).bounding_box()["y"] + 44 <= LANDSCAPE["height"]

    went_out.nth(0).click()
    entries = page.locator("fieldset.hand-entry")
    expect(entries).to_have_count(4)
    save = page.get_by_role("button", name=re.compile("Save contract 1"))
    box = save.bounding_box()
    assert box["y"] + box["height"] <= LANDSCAPE["height"], box
    assert page.evaluate("() => document.documentElement.scrollTop") == 0
    keys = entries.nth(3).locator(".keypad .key")
    assert keys.last.bounding_box()["y"] + 44 <= LANDSCAPE["height"]


PHOTOS = Path(__file__).resolve().parents[2] / "recognition" / "photos"


def hand_entry(page, name: str):
    return page.locator("fieldset.hand-entry").filter(has_text=name)


def score_entry_of_three(page, log_in):
    """A table of three whose Ann went out, its score entry open on `page`, signed in: the seats
    (Ann, Ben, Cleo)."""
    game = make_game(players=3)
    ann, ben, cleo = seats(game)
    act(services.round_record_went_out, game, seat=ann)
    log_in(page, game.club.memberships.get().user, at=game.get_absolute_url())
    return ann, ben, cleo


def test_a_hand_photo_is_shown_marked_and_a_wrong_card_is_replaced_with_a_tap(
    tablet, log_in, task_worker
):
    page = tablet
    ann, ben, cleo = score_entry_of_three(page, log_in)

    entry = hand_entry(page, ben.player.name)
    expect(entry.get_by_role("button", name=re.compile("^Photo"))).to_be_visible()
    entry.locator("input[type=file]").set_input_files(PHOTOS / "win_016.jpg")
    entry = hand_entry(page, ben.player.name)
    expect(entry.locator(".photo-reading")).to_contain_text(
        f"Reading the photo of {ben.player.name}"
    )
    # Cleo's hand is typed while Ben's photo is read, and stays as typed.
    cleo_entry = hand_entry(page, cleo.player.name)
    cleo_entry.get_by_role("button", name="5", exact=True).click()
    expect(cleo_entry.get_by_label("Cards", exact=True)).to_have_value("5")
    marks = entry.locator("figure.photo svg .mark")
    expect(marks.first).to_be_visible(timeout=30_000)  # reading takes a second on a busy machine
    photo = Photo.objects.get()
    read = [found["card"] for found in photo.detections]
    expect(marks).to_have_count(len(read))
    expect(entry.locator(".photo-caption")).to_contain_text(f"{ben.player.name}'s cards above")
    expect(cleo_entry.get_by_label("Cards", exact=True)).to_have_value("5")
    chips = entry.locator(".card-chips .chip")
    expect(chips).to_have_count(len(read))
    expect(entry.locator(".chip.unsure")).to_have_count(len(photo.unsure_indices))

    # The first card was wrong: one tap takes it out, the next key goes in its place.
    chips.first.click()
    expect(chips).to_have_count(len(read) - 1)
    expect(entry.locator(".chip-caret")).to_have_count(1)
    entry.get_by_role("button", name="K", exact=True).click()
    expect(chips.first).to_have_text("K")
    cards = entry.get_by_label("Cards", exact=True)
    expect(cards).to_have_value(" ".join(["K", *read[1:]]))

    # A fan of a whole deck's corners is more than a hand holds: take cards out from the end
    # down to the ten dealt, give Cleo hers, and save.
    for left in range(len(read) - 1, 9, -1):
        chips.last.click()
        expect(chips).to_have_count(left)
    # The count check chose the eleven dealt: one tap says the hand holds ten.
    expect(entry.locator(".count-check")).to_contain_text("One card missing")
    entry.locator(".held-choice").filter(has_text=re.compile("^10$")).click()
    expect(entry.locator(".count-check")).to_have_text("All 10 cards are entered.")
    page.get_by_role("button", name=re.compile("Save contract 1")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Contract 2 of 7")
    saved = Hand.objects.get(round__number=1, seat=ben).cards.split()
    assert saved == ["K", *read[1:10]]


def test_the_standalone_checker_has_a_photo_button_too(tablet, log_in, task_worker):
    page = tablet
    user = make_club().memberships.get().user
    log_in(page, user, at=reverse("checker"))
    expect(page.get_by_role("button", name=re.compile("^Photo"))).to_be_visible()
    page.locator("input[type=file][name=photo]").set_input_files(PHOTOS / "phone_010.jpg")
    expect(page.locator("figure.photo svg .mark").first).to_be_visible(timeout=30_000)
    expect(page.get_by_label("Cards", exact=True)).to_have_value(re.compile(r"\b6S\b"))
    # The photo shown is the one the page holds: it was kept only until it was read.
    assert page.locator("figure.photo image").get_attribute("href").startswith("blob:")
    assert not Photo.objects.exists()


def test_the_first_dealer_menu_names_the_players_as_they_are_seated(tablet, log_in):
    page = tablet
    club = make_club()
    for name in ["Ann", "Ben", "Cleo"]:
        make_player(club, name)
    log_in(page, club.memberships.get().user, at=reverse("game_new", args=[club.pk]))
    page.get_by_label("Seat 1").select_option(label="Cleo")
    page.get_by_label("Seat 2").select_option(label="Ann")
    dealer = page.get_by_label("First dealer")
    expect(dealer.locator("option").nth(0)).to_have_text("Cleo")
    expect(dealer.locator("option").nth(1)).to_have_text("Ann")
    expect(dealer.locator("option").nth(2)).to_have_text("Seat 3 (nobody yet)")


def test_the_club_pages_name_box_takes_the_width_on_a_phone(chromium, live_server, signed_in):
    pages, state = signed_in
    context, page = open_page(chromium, live_server, "phone", state)
    page.goto(pages["club"])
    box = page.get_by_label("Player name").bounding_box()
    assert box["width"] >= 200, box
    page.get_by_label("Player name").fill("Zoe")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#players .chips")).to_contain_text("Zoe")
    context.close()
