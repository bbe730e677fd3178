import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Check, Photo, TableMeld
from tests.factories import make_game

pytestmark = pytest.mark.django_db(transaction=True)

PHOTOS = Path(__file__).resolve().parents[2] / "recognition" / "photos"


@pytest.fixture
def table(tablet, log_in):
    game = make_game(players=3)
    log_in(tablet, game.club.memberships.get().user, at=game.get_absolute_url())
    tablet.get_by_role("button", name="Check a meld").click()
    expect(tablet.get_by_role("heading", level=1)).to_contain_text("Contract 1 of 7")
    return game


def ask(page, question):
    page.get_by_label(question).check()
    page.get_by_role("button", name="Check", exact=True).click()


def test_type_pick_check_record_and_find_a_shanghai(tablet, table):
    page = tablet
    cards = page.get_by_label("Cards", exact=True)

    # Typed, with live feedback naming a token it cannot read.
    cards.fill("8H 8S 1D")
    expect(page.locator("#preview")).to_contain_text('"1D" is not a card')
    cards.fill("8H 8S")
    expect(page.locator("#preview .card-face")).to_have_count(2)

    # Tapped on the picker: the joker and then a second book.
    page.get_by_role("button", name="Joker").click()
    page.get_by_role("button", name="Next meld").click()
    for card in ["K♣", "K♦", "K♠"]:
        page.get_by_role("button", name=card, exact=True).click()
    expect(cards).to_have_value("8H 8S JK | KC KD KS")
    expect(page.locator("#preview .card-face")).to_have_count(6)

    ask(page, "Can I go down?")
    answer = page.locator("#answer")
    expect(answer.locator(".verdict")).to_have_text("✔ You can go down")
    expect(answer).to_contain_text("JK = 8")
    assert Check.objects.get().ok

    # One tap records it as the first player's going-down.
    answer.get_by_role("button", name="Record the going-down").click()
    expect(page.locator(".table-meld")).to_have_count(2)
    assert TableMeld.objects.count() == 2

    # A king discarded: a Shanghai card, and the checker shows the meld it fits.
    cards.fill("KH")
    ask(page, "Is this discard a Shanghai?")
    expect(answer.locator(".verdict")).to_have_text("✔ Shanghai! It fits the table")
    target = answer.locator(".arrangement.target")
    expect(target).to_have_count(1)
    expect(target).to_contain_text("K♣")


def test_photo_of_a_card_fills_the_checker_to_correct(tablet, table, task_worker):
    page = tablet
    page.locator("input[type=file][name=photo]").set_input_files(PHOTOS / "phone_010.jpg")
    expect(page.get_by_role("status")).to_contain_text("Reading the photo")
    expect(page.locator("figure.photo svg .mark").first).to_be_visible(timeout=30_000)
    cards = page.get_by_label("Cards", exact=True)
    expect(cards).to_have_value(re.compile(r"\b6S\b"))
    photo = Photo.objects.get()
    assert "6S" in {found["card"] for found in photo.detections}

    # Correct what was read into a book of sixes, then ask.
    page.get_by_role("button", name="Clear").click()
    for card in ["6♠", "6♥", "6♦"]:
        page.get_by_role("button", name=card, exact=True).click()
    ask(page, "Is this a book or a run?")
    expect(page.locator("#answer .verdict")).to_have_text("✔ A legal meld")
    check = Check.objects.get()
    photo.refresh_from_db()
    assert photo.check_asked == check
