"""A member downloads the club's scores and whole record, then restores it into a new club (a
worker imports it while the page follows); the running-totals chart is legible on a 390-px
phone."""

import csv
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.models import Club
from scorekeeper.selectors import archive
from tests.factories import make_game, play_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_export_csv_and_json_then_import_into_a_new_club(tablet, log_in, task_worker):
    page = tablet
    game = make_game(players=4)
    play_round(game, went_out=2, points=[15, 40, 5])
    play_round(game, went_out=0, points=[10, 20, 30])
    club, user = game.club, game.created_by
    log_in(page, user, at=club.get_absolute_url())

    with page.expect_download() as csv_download:
        page.get_by_role("button", name="All scores (CSV)").click()
    text = Path(csv_download.value.path()).read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(text.splitlines()))
    assert len(rows) == 2 * 4
    assert {row["player"] for row in rows} == set(club.players.values_list("name", flat=True))

    with page.expect_download() as json_download:
        page.get_by_role("button", name="Everything (JSON)").click()
    path = json_download.value.path()
    assert json.loads(Path(path).read_text(encoding="utf-8"))["format"] == archive.FORMAT

    page.goto("/clubs/new/")
    page.get_by_label("Name").fill("Restored")
    page.get_by_role("button", name="Create the club").click()
    page.get_by_role("button", name="Import a club export").click()
    page.get_by_label("Club export (.json)").set_input_files(path)
    page.get_by_role("button", name="Import").click()

    # A worker imports the file; its page follows it, then says what came in.
    restored = Club.objects.get(name="Restored")
    expect(page.locator("#import-progress")).to_contain_text(
        "Imported 4 players, 1 season and 1 table into Restored."
    )
    page.get_by_role("button", name="Open Restored").click()
    assert page.url.endswith(restored.get_absolute_url())
    expect(page.get_by_role("button", name="Import a club export")).to_have_count(0)
    page.locator("table a").first.click()
    expect(page.locator(".scoreboard .table-scroll > table > tbody > tr")).to_have_count(4)
    expect(page.get_by_role("img", name=re.compile("Running totals"))).to_be_visible()


def _luminance(css_colour: str) -> float:
    """WCAG relative luminance of an rgb()/rgba() colour."""
    red, green, blue = (int(part) / 255 for part in re.findall(r"[\d.]+", css_colour)[:3])

    def linear(channel):
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def _contrast(first: float, second: float) -> float:
    return (max(first, second) + 0.05) / (min(first, second) + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_chart_fits_a_phone_in_both_schemes(chromium, live_server, log_in, scheme):
    game = make_game(players=5)
    for went_out in range(3):
        play_round(game, went_out=went_out, points=[5, 10, 15, 20])
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, base_url=live_server.url, color_scheme=scheme
    )
    page = context.new_page()
    log_in(page, game.created_by, at=game.get_absolute_url())
    chart = page.locator(".chart-svg")
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    # Axis labels stay at least 10 CSS pixels tall on the phone.
    label = chart.locator("text.axis").first.bounding_box()
    assert label["height"] >= 10
    # Every player's line, and the labels, stand out from the page in either scheme.
    colours = page.evaluate(
        """() => {
            const lines = [...document.querySelectorAll('.chart-svg polyline')]
                .map(line => getComputedStyle(line).stroke);
            const text = getComputedStyle(document.querySelector('.chart-svg text')).fill;
            const page = getComputedStyle(document.documentElement).backgroundColor;
            return {lines, text, page};
        }"""
    )
    background = _luminance(colours["page"])
    assert len(set(colours["lines"])) == 5, colours
    for line in colours["lines"]:
        assert _contrast(_luminance(line), background) >= 3, (line, colours["page"])
    assert _contrast(_luminance(colours["text"]), background) >= 4.5, colours
    context.close()
