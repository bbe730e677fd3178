import dataclasses
import re

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Game
from tests.factories import finish_game, make_club, make_game, make_player, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def finish_contract(page, winner: str, held: list[str]) -> None:
    """The one contract of the table: `winner` goes out, the others hold these ranks."""
    page.locator("form.player-row").filter(has=page.get_by_text(winner, exact=True)).get_by_role(
        "button", name="Went out"
    ).click()
    entries = page.locator("fieldset.hand-entry")
    expect(entries).to_have_count(len(held))
    for index, rank in enumerate(held):
        entries.nth(index).get_by_role("button", name=rank, exact=True).click()
    page.get_by_role("button", name=re.compile("Save contract 1")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Game over")


def test_two_tables_then_the_standings_sorted_and_a_player_page(tablet, log_in):
    page = tablet
    user = make_user()
    club = make_club(user, name="Thursday")
    # One contract a table keeps the walk short; everything else is the seed rules.
    profile = club.profiles.get()
    rules = profile.house_rules
    services.profile_save(
        club=club,
        name=profile.name,
        profile=profile,
        house_rules=dataclasses.replace(
            rules, contracts=rules.contracts[:1], cards_dealt=rules.cards_dealt[:1]
        ),
        user=club.owner(),
    )
    for name in ["Ann", "Ben", "Cleo"]:
        make_player(club, name)
    log_in(page, user)

    page.get_by_role("link", name=re.compile("Thursday")).click()
    page.get_by_role("button", name="Start a table").click()
    for seat, name in enumerate(["Ann", "Ben", "Cleo"]):
        page.get_by_label(f"Seat {seat + 1}").select_option(label=name)
    page.get_by_role("button", name="Deal contract 1").click()
    finish_contract(page, "Ann", ["K", "A"])  # Ben 10, Cleo 20

    # Play again: the same three, the deal moved on to Ben.
    page.get_by_role("button", name=re.compile("Play again")).click()
    expect(page.locator(".deal")).to_contain_text("Ben deals")
    finish_contract(page, "Cleo", ["JK", "7"])  # Ann 50, Ben 5
    assert Game.objects.finished().count() == 2

    page.get_by_role("link", name="Thursday").click()
    expect(page.locator("tbody tr").first).to_contain_text("Cleo")
    page.get_by_role("button", name="Standings", exact=True).click()
    body = page.locator("table.standings tbody tr")
    # Ann and Cleo won one each: Cleo's lower average final total (10 against 25) places her first.
    expect(body.nth(0).locator("td").nth(1)).to_have_text("Cleo")
    expect(body.nth(1).locator("td").nth(1)).to_have_text("Ann")
    expect(body.nth(2).locator("td").nth(1)).to_have_text("Ben")
    expect(page.get_by_text("Placed by win rate")).to_be_visible()

    # Sort by average final total, lowest first, then the other way round.
    page.get_by_role("link", name="Average final total").click()
    expect(body.nth(0).locator("td").nth(1)).to_have_text("Ben")  # 7.5
    page.get_by_role("link", name="Average final total").click()
    expect(body.nth(0).locator("td").nth(1)).to_have_text("Ann")  # 25
    expect(page).to_have_url(re.compile(r"sort=-average"))

    page.get_by_role("link", name="Ben", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ben")
    expect(page.locator(".figures")).to_contain_text("Games2")
    expect(page.locator("#record table").first).to_contain_text("Ann")
    page.get_by_role("link", name=re.compile(r"\d{4}, \d\d:\d\d")).first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Game over")


def test_the_standings_wait_for_a_recount_and_appear_when_a_worker_is_done(tablet, log_in, request):
    page = tablet
    user = make_user()
    club = make_club(user, name="Thursday")
    players = [make_player(club, name) for name in ["Ann", "Ben", "Cleo", "Dev"]]
    for went_out in (0, 1):
        finish_game(make_game(club, seated=players), [(went_out, None)] * 7)
    log_in(page, user, at=club.get_absolute_url())

    page.get_by_role("button", name="Recount the standings").click()
    expect(page.locator("#recount")).to_contain_text("Recounting the standings…")
    page.get_by_role("button", name="Standings", exact=True).click()
    expect(page.locator("#standings")).to_contain_text("The standings are being recounted…")
    expect(page.locator("table.standings")).to_have_count(0)

    request.getfixturevalue("task_worker")  # a worker starts: the page polls till it is done

    expect(page.locator("table.standings tbody tr")).to_have_count(4)
    page.get_by_role("link", name="Thursday").click()
    expect(page.locator("#recount")).not_to_contain_text("Recounting")
