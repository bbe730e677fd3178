"""Photos of hands a player can trust (issue #36): the count check finds a card the recognizer
missed and a tap adds it, two photos of a wide hand are read together, and the marks on a busy
fan stay legible on a tablet and on a phone."""

import re
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

import rules
from scorekeeper import services
from scorekeeper.models import Hand, Photo
from tests.factories import act, make_game, make_user, seats
from tests.scorekeeper.browser.test_screens import (
    axe_violations,
    hand_entry,
    score_entry_of_three,
    small_targets,
    width_problems,
)

pytestmark = pytest.mark.django_db(transaction=True)

PHOTOS = Path(__file__).resolve().parents[2] / "recognition" / "photos"
# A webcam shot of an 18-card fan: every card is read (its 5C as a second 5S, worth the same).
FAN = PHOTOS / "win_016.jpg"
# A webcam shot of an 8-card hand: 7 cards are read, its KC only 64% sure, under what counts:
# the count check offers it. (Its 3S is labelled 4S in the shared photos' labels, which the
# photo contradicts: tools/recognition/label_errata.tsv.)
MISSED = PHOTOS / "win_004.jpg"
MISSED_CARDS = "3S 4H 5H 9S 10H JC KC AC"
MISSED_DEALT = 8
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}


def a_table_dealt(may_is: int = 2, dealt: int = 12):
    """Three players dealt `dealt` cards; Ben called `may_is` May I?s (two, of twelve: 18 cards,
    the fan) and Ann went out."""
    game = make_game(players=3)
    house_rules = rules.HouseRules(cards_dealt=dealt)
    profile = services.profile_save(
        user=game.club.owner(), club=game.club, name="Twelve", house_rules=house_rules
    )
    game = make_game(game.club, players=3, profile=profile)
    ann, ben, cleo = seats(game)
    for _ in range(may_is):
        act(services.may_i_spend, game, seat=ben)
    act(services.round_record_went_out, game, seat=ann)
    return game, ann, ben, cleo


def score_entry_opened(page, log_in, may_is: int = 2, dealt: int = 12):
    """The table dealt `dealt` whose Ben called `may_is` May I?s, its score entry open on `page`,
    signed in."""
    game, ann, ben, cleo = a_table_dealt(may_is, dealt)
    log_in(page, game.club.memberships.get().user, at=game.get_absolute_url())
    return game, ann, ben, cleo


def photograph(page, entry, photo: Path):
    entry.locator("input[type=file]").set_input_files(photo)
    expect(entry.locator("figure.photo svg .mark").first).to_be_visible(timeout=30_000)


def test_the_count_check_finds_the_missed_card_a_tap_adds_it_and_the_total_is_right(
    tablet, log_in, task_worker
):
    page = tablet
    game, ann, ben, cleo = score_entry_opened(page, log_in, may_is=0, dealt=MISSED_DEALT)
    entry = hand_entry(page, ben.player.name)
    held = entry.get_by_role("radiogroup", name=f"How many cards {ben.player.name} holds")
    expect(held).to_be_hidden()  # no photo yet: typed hands are counted by the player

    photograph(page, entry, MISSED)
    read = [found["card"] for found in Photo.objects.get().detections]
    assert len(read) == 7, read
    # The usual count (eight dealt, no May I?) is chosen; a card is missing.
    expect(held.get_by_role("radio", name="8")).to_be_checked()
    check = entry.locator(".count-check")
    expect(check).to_have_text(
        "One card missing: this hand holds 8 and 7 are entered. Add it, or tap how many it holds."
    )
    # Where the recognizer was unsure is marked on the photo and listed: one tap adds the KC.
    expect(entry.locator('figure.photo g.candidate[data-add-card="KC"]')).to_have_count(1)
    entry.get_by_role("button", name=re.compile(r"^\+ KC")).click()
    expect(check).to_have_text("All 8 cards are entered.")
    cards = entry.get_by_label("Cards", exact=True)
    expect(cards).to_have_value(" ".join([*read, "KC"]))
    expect(entry.get_by_role("button", name="KC added")).to_be_disabled()

    hand_entry(page, cleo.player.name).get_by_role("button", name="7", exact=True).click()
    page.get_by_role("button", name=re.compile("Save contract 1")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Contract 2 of 7")
    hand = Hand.objects.get(round__number=1, seat=ben)
    points = dict(rules.HouseRules().points)
    right = sum(points[card[:-1]] for card in MISSED_CARDS.split())
    assert hand.points == right == 75


def test_a_count_said_is_kept_for_the_hand_while_another_hand_is_photographed(
    tablet, log_in, task_worker
):
    page = tablet
    game, ann, ben, cleo = score_entry_opened(page, log_in)
    ben_entry = hand_entry(page, ben.player.name)
    photograph(page, ben_entry, PHOTOS / "win_029.jpg")
    ben_entry.locator(".held-choice").filter(has_text=re.compile("^9$")).click()
    expect(ben_entry.locator(".count-check")).to_contain_text("One card missing")

    cleo_entry = hand_entry(page, cleo.player.name)
    photograph(page, cleo_entry, PHOTOS / "phone_021.jpg")
    # Ben's photo, his cards and the count he said are all still there.
    ben_entry = hand_entry(page, ben.player.name)
    expect(ben_entry.locator("figure.photo svg .mark")).to_have_count(8)
    expect(ben_entry.get_by_role("radio", name="9", exact=True)).to_be_checked()
    expect(ben_entry.locator(".count-check")).to_contain_text("One card missing")
    expect(cleo_entry.locator("figure.photo")).to_have_count(1)
    # A reload keeps it too: the tablet's draft of the hands holds the count said.
    page.reload()
    expect(ben_entry.get_by_role("radio", name="9", exact=True)).to_be_checked()
    expect(ben_entry.locator(".count-check")).to_contain_text("One card missing")

    # Saved anyway, the server says the same and keeps nothing.
    page.get_by_role("button", name=re.compile("Save contract 1")).click()
    expect(ben_entry.locator(".error")).to_contain_text("One card missing")
    assert not Hand.objects.filter(points__isnull=False).exists()


def test_another_tablet_shows_the_hands_photo_and_its_cards(open_tablet, log_in, task_worker):
    game, ann, ben, cleo = a_table_dealt(may_is=0, dealt=MISSED_DEALT)
    user = game.club.memberships.get().user
    first, second = open_tablet(), open_tablet()
    log_in(first, user, at=game.get_absolute_url())
    photograph(first, hand_entry(first, ben.player.name), MISSED)
    read = " ".join(found["card"] for found in Photo.objects.get().detections)

    log_in(second, user, at=game.get_absolute_url())
    entry = hand_entry(second, ben.player.name)
    expect(entry.get_by_label("Cards", exact=True)).to_have_value(read)
    expect(entry.locator("figure.photo svg .mark")).to_have_count(7)
    expect(entry.locator(".count-check")).to_contain_text("One card missing")


def test_two_photos_of_one_hand_count_each_card_once_and_say_where_it_came_from(
    tablet, log_in, task_worker
):
    page = tablet
    game, ann, ben, cleo = score_entry_opened(page, log_in)
    entry = hand_entry(page, ben.player.name)
    photograph(page, entry, PHOTOS / "win_029.jpg")  # 2S 2H 2D 2C 8S 8H 8D 8C
    entry.get_by_role("button", name=re.compile("^2nd photo")).click()
    # The file box stands for the camera: choosing the file reads it as the hand's second photo.
    entry.locator("input[type=file]").set_input_files(PHOTOS / "win_031.jpg")  # 8S 8H 8D 8C
    expect(entry.locator("figure.photo")).to_have_count(2, timeout=30_000)
    # The four eights were in both photos: each counts once.
    cards = entry.get_by_label("Cards", exact=True)
    expect(cards).to_have_value(re.compile(r"^(\S+ ){7}\S+$"))
    assert sorted(cards.input_value().split()) == sorted(
        ["2S", "2H", "2D", "2C", "8S", "8H", "8D", "8C"]
    )
    sources = entry.locator(".card-sources li")
    expect(sources.filter(has_text="8S")).to_have_text("8S both photos")
    expect(sources.filter(has_text="2H")).to_have_text("2H photo 1")
    # A card taken out of the hand (the photos saw it, but it is another player's) is no longer
    # said to come from them.
    entry.get_by_role("button", name="Take out 8S").click()
    expect(cards).to_have_value(re.compile(r"^(\S+ ){6}\S+$"))
    expect(sources.filter(has_text="8S")).to_be_hidden()
    expect(sources.filter(has_text="2H")).to_be_visible()


def test_a_second_photo_adds_its_cards_to_a_box_corrected_since_the_first(
    tablet, log_in, task_worker
):
    page = tablet
    game, ann, ben, cleo = score_entry_opened(page, log_in)
    entry = hand_entry(page, ben.player.name)
    photograph(page, entry, PHOTOS / "win_031.jpg")  # 8S 8H 8D 8C
    cards = entry.get_by_label("Cards", exact=True)
    expect(cards).to_have_value(re.compile(r"^(\S+ ){3}\S+$"))
    # The player takes a card out (say one eight was another player's), then photographs the
    # rest of the fan.
    chips = entry.locator(".card-chips .chip")
    chips.first.click()
    expect(chips).to_have_count(3)
    corrected = cards.input_value().split()
    entry.get_by_role("button", name=re.compile("^2nd photo")).click()
    entry.locator("input[type=file]").set_input_files(PHOTOS / "win_029.jpg")  # the 2s and 8s
    expect(entry.locator("figure.photo")).to_have_count(2, timeout=30_000)
    # The eight taken out stays out; the twos the second photo brought are added after.
    expect(cards).to_have_value(re.compile(r"^(\S+ ){6}\S+$"))
    assert cards.input_value().split()[:3] == corrected
    assert sorted(cards.input_value().split()[3:]) == ["2C", "2D", "2H", "2S"]
    expect(entry.locator(".card-chips .chip")).to_have_count(7)


def test_the_checker_has_the_count_check_too_and_remembers_the_count(tablet, log_in, task_worker):
    page = tablet
    game, ann, ben, cleo = a_table_dealt()
    log_in(page, game.club.memberships.get().user, at=reverse("checker"))
    page.locator("input[type=file][name=photo]").set_input_files(MISSED)
    held = page.get_by_role("radiogroup", name="How many cards the hand holds")
    # The seed game deals eleven, and seven are read: the player says the hand holds eight.
    expect(held.get_by_role("radio", name="11", exact=True)).to_be_checked(timeout=30_000)
    check = page.locator(".photo-result .count-check")
    expect(check).to_contain_text("Four cards missing: this hand holds 11 and 7 are entered.")
    held.locator(".held-choice").filter(has_text=re.compile("^8$")).click()
    expect(check).to_contain_text("One card missing: this hand holds 8 and 7 are entered.")
    page.get_by_role("button", name=re.compile(r"^\+ KC")).click()
    expect(check).to_have_text("All 8 cards are entered.")
    expect(page.get_by_label("Cards", exact=True)).to_have_value(re.compile(r" KC$"))

    # The next photo on this page is of a hand of eight too (win_029 reads eight).
    page.locator("input[type=file][name=photo]").set_input_files(PHOTOS / "win_029.jpg")
    expect(page.locator(".photo-result .count-check")).to_have_text(
        "All 8 cards are entered.", timeout=30_000
    )


def label_boxes(page):
    """The screen boxes of the marks' labels shown on the photos, and their font sizes."""
    return page.evaluate(
        """() => [...document.querySelectorAll("figure.photo svg g text")]
          .filter((text) => text.checkVisibility())
          .map((text) => {
            const box = text.getBoundingClientRect();
            return {card: text.textContent, x: box.x, y: box.y, width: box.width,
                    height: box.height, size: parseFloat(getComputedStyle(text).fontSize) *
                    text.getScreenCTM().a};
          })"""
    )


def crossing(boxes):
    return [
        (one["card"], other["card"])
        for index, one in enumerate(boxes)
        for other in boxes[index + 1 :]
        if one["x"] < other["x"] + other["width"]
        and other["x"] < one["x"] + one["width"]
        and one["y"] < other["y"] + other["height"]
        and other["y"] < one["y"] + one["height"]
    ]


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_labels_on_a_busy_fan_never_overlap_and_stay_legible(
    open_tablet, log_in, task_worker, viewport
):
    page = open_tablet(viewport=viewport)
    game, ann, ben, cleo = score_entry_opened(page, log_in)
    entry = hand_entry(page, ben.player.name)
    photograph(page, entry, FAN)
    # The labels are placed once the photo's marks have settled on the page.
    expect(entry.locator("figure.photo svg[data-placed]")).to_have_count(1)

    boxes = label_boxes(page)
    assert not crossing(boxes), crossing(boxes)
    # The number row scrolls by itself: the page does not scroll sideways; what a finger taps is
    # big enough, and axe-core finds nothing serious.
    assert not width_problems(page)
    assert not small_targets(page)
    assert not axe_violations(page)
    assert all(box["size"] >= 12 for box in boxes), boxes
    # Most labels find room beside their box; a label that does not shows on a tap of its box.
    shown = len(boxes)
    marks = entry.locator("figure.photo svg g.mark, figure.photo svg g.candidate")
    assert shown >= marks.count() * 2 // 3, (shown, marks.count())
    hidden = entry.locator("figure.photo svg g.mark.label-hidden")
    if hidden.count():
        hidden.first.dispatch_event("click")
        expect(entry.locator("figure.photo svg g.mark.label-shown text")).to_be_visible()


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_a_three_digit_total_is_never_covered_by_the_photo_button(open_tablet, log_in, viewport):
    page = open_tablet(viewport=viewport)
    ann, ben, cleo = score_entry_of_three(page, log_in)
    entry = hand_entry(page, ben.player.name)
    for _ in range(3):
        entry.get_by_role("button", name="JK", exact=True).click()
    total = entry.locator(".hand-total")
    expect(total).to_have_text("150 pts")
    text = total.evaluate(
        """(output) => {
          const range = document.createRange();
          range.selectNodeContents(output);
          const box = range.getBoundingClientRect();
          return {x: box.x, y: box.y, width: box.width, height: box.height,
                  clipped: output.scrollWidth > output.clientWidth + 1};
        }"""
    )
    button = entry.get_by_role("button", name=re.compile("^Photo")).bounding_box()
    assert not text["clipped"], text
    assert not crossing([{"card": "total", **text}, {"card": "Photo", **button}]), (text, button)


def test_the_keys_stay_live_while_a_photo_is_read_and_a_tap_meanwhile_is_saved_once(tablet, log_in):
    page = tablet
    game, ann, ben, cleo = score_entry_opened(page, log_in, may_is=0)
    # No worker runs: Ben's photo stays being read, its poll asking every 25 ms.
    hand_entry(page, ben.player.name).locator("input[type=file]").set_input_files(MISSED)
    expect(hand_entry(page, ben.player.name).locator(".photo-reading")).to_be_visible()
    # Sampled for a second of those polls: no key of the table is ever disabled.
    disabled = page.evaluate(
        """() => new Promise((done) => {
          let samples = 0, disabled = 0;
          const timer = setInterval(() => {
            samples += 1;
            if (document.querySelector("#table .keypad button:disabled")) disabled += 1;
            if (samples === 50) { clearInterval(timer); done(disabled); }
          }, 20);
        })"""
    )
    assert disabled == 0
    cleo_entry = hand_entry(page, cleo.player.name)
    king = cleo_entry.get_by_role("button", name="K", exact=True)
    expect(king).to_be_enabled()
    king.click(timeout=1_000)
    expect(cleo_entry.get_by_label("Cards", exact=True)).to_have_value("K")
    hand_entry(page, ben.player.name).get_by_label("or points").fill("5")
    page.get_by_role("button", name=re.compile("Save contract 1")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Contract 2 of 7")
    assert Hand.objects.get(round__number=1, seat=cleo).points == 10  # the king, once


def test_the_same_photo_chosen_again_is_read_again(tablet, log_in):
    page = tablet
    log_in(page, make_user(), at=reverse("checker"))
    address = reverse("checker_photo")
    for _ in range(2):
        # The Photo button opens the picker afresh: the file chosen before is no longer chosen,
        # so choosing it again is a change, and the page sends it to be read.
        with page.expect_file_chooser() as chooser:
            page.get_by_role("button", name=re.compile("^Photo")).click()
        assert page.locator("#checker-photo-input").evaluate("(input) => input.files.length") == 0
        with page.expect_request(lambda request: request.url.endswith(address)):
            chooser.value.set_files(MISSED)
        # No worker runs: it stays being read.
        expect(page.locator(".photo-reading")).to_be_visible()
