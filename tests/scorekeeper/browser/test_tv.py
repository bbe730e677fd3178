"""The TV pages fit a TV (issue #52): the table's TV and the club night's TV fill the screen at
720p, 1080p and 4K with nothing to scroll, for five players of long names and ten contracts; a
club night with more tables than fit shows them in turn."""

import dataclasses

import pytest
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Club
from tests.factories import act, make_club, make_game, make_player, play_round, seats

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = [(1280, 720), (1920, 1080), (3840, 2160)]
# Thirty characters each, as long as a name a club would type, and wide letters.
SURNAME = " Wolfenstein-Montgomery-Whitmore"
FIRST_NAMES = ["Wilhelmina", "Maximilian", "Bartholomew", "Gwendolyn", "Wolfgang"]


def long_names(prefix: str = "") -> list[str]:
    names = [f"{prefix}{first}{SURNAME}"[:30] for first in FIRST_NAMES]
    assert {len(name) for name in names} == {30}
    return names


def profile_of(club: Club, contracts: int):
    """A house-rule profile of the club with `contracts` contracts (the seed's, repeated)."""
    seed = club.profiles.get().house_rules
    chosen = (seed.contracts * 2)[:contracts]
    house_rules = dataclasses.replace(
        seed, contracts=chosen, cards_dealt=(seed.cards_dealt * 2)[:contracts]
    )
    return services.profile_save(
        club=club, user=club.owner(), name=f"{contracts} contracts", house_rules=house_rules
    )


def overflow(page, selector: str) -> list[str]:
    """What a viewer could not see without scrolling: the page taller or wider than the screen,
    a scrolling region, or a shown row (`selector`) out of the screen."""
    return page.evaluate(
        """(selector) => {
          const root = document.documentElement;
          const screen = `${innerWidth}x${innerHeight}`;
          const out = [];
          if (root.scrollHeight > innerHeight) out.push(`${screen}: ${root.scrollHeight} px tall`);
          if (root.scrollWidth > innerWidth) out.push(`${screen}: ${root.scrollWidth} px wide`);
          for (const region of document.querySelectorAll(".table-scroll")) {
            if (region.scrollWidth > region.clientWidth + 1) out.push(`${screen}: it scrolls`);
          }
          for (const element of document.querySelectorAll(selector)) {
            if (!element.checkVisibility()) continue;  // a page of rows shown in turn
            const box = element.getBoundingClientRect();
            if (box.top < 0 || box.left < 0 || box.bottom > innerHeight + 0.5 ||
                box.right > innerWidth + 0.5) {
              out.push(`${screen}: ${element.textContent.trim().slice(0, 40)} out of the screen`);
            }
          }
          return out;
        }""",
        selector,
    )


def fits_every_screen(page, selector: str) -> list[str]:
    problems = []
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)  # one layout at the new size
        problems += overflow(page, selector)
    return problems


def test_the_tables_tv_fits_every_screen_with_five_long_names_and_ten_contracts(open_tablet):
    club = make_club()
    players = [make_player(club, name) for name in long_names()]
    game = make_game(club, players, profile=profile_of(club, 10))
    first, second, *_ = seats(game)
    act(services.hand_mark_down, game, seat=first)
    act(services.shanghai_record, game, seat=second, discarder=first)
    for number in range(9):
        play_round(game, went_out=number % 5, points=[105, 95, 120, 85])
    act(services.may_i_spend, game, seat=second)
    act(services.round_record_went_out, game, seat=first)  # the tallest board: being scored

    page = open_tablet(viewport={"width": 1280, "height": 720})
    page.goto(services.tv_link_create(game=game, user=club.owner()).get_absolute_url())
    expect(page.locator(".tv-news")).to_contain_text("went out")
    expect(page.locator(".tv-scores tbody tr")).to_have_count(5)
    assert not fits_every_screen(page, ".tv-scores tr, .tv-total, .tv p, .tv h1")
    # A name too long for its place ends in an ellipsis; the whole name is in its title.
    name = page.locator(".tv-scores tbody tr").first.locator("[title]").first
    expect(name).to_have_attribute("title", players[0].name)


def test_the_club_nights_tv_fits_every_screen_and_shows_its_tables_in_turn(open_tablet):
    club = make_club()
    owner = club.owner()
    one = profile_of(club, 1)
    for table in range(9):
        players = [make_player(club, name) for name in long_names(f"{table}")]
        game = make_game(club, players, profile=one if table < 6 else None)
        if table < 6:  # finished: its five players show in the standings
            play_round(game, went_out=table % 5, points=[105, 95, 120, 85])
    services.club_tv_link_create(club=club, user=owner)
    club.refresh_from_db()

    page = open_tablet(viewport={"width": 1280, "height": 720})
    page.clock.install()
    page.goto(f"/tonight/{club.tv_token}/")
    tables = page.locator(".night-tables tbody tr")
    expect(tables).to_have_count(9)
    assert not fits_every_screen(page, ".night tr, .night p, .night h1, .night h2")
    # More tables than fit: a page of them at a time, and which page it is.
    shown = page.locator(".night-tables tbody tr:visible")
    first_page = shown.all_inner_texts()
    assert 0 < len(first_page) < 9
    expect(page.locator(".night-tables-pages")).to_have_text(f"Tables 1–{len(first_page)} of 9")
    page.clock.run_for(11_000)
    expect(page.locator(".night-tables-pages")).to_contain_text(f"Tables {len(first_page) + 1}–")
    assert shown.all_inner_texts()[0] not in first_page
    assert not fits_every_screen(page, ".night tr, .night p, .night h1, .night h2")
