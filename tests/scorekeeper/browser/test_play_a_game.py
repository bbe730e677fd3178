import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scorekeeper import services
from scorekeeper.models import Club, Event, Game, Hand
from tests.factories import act, make_club, make_game, make_player, make_user, play_round, seats

pytestmark = pytest.mark.django_db(transaction=True)


def row(page, name):
    return page.locator("form.player-row").filter(has=page.get_by_text(name, exact=True))


def test_a_whole_game_on_a_tablet(tablet, log_in):
    page = tablet
    user = make_user()
    club = make_club(user, name="Thursday")
    for name in ["Ann", "Ben", "Cleo", "Dev"]:
        make_player(club, name)
    log_in(page, user)

    page.get_by_role("link", name=re.compile("Thursday")).click()
    page.get_by_role("button", name="Start a table").click()
    for seat, name in enumerate(["Ann", "Ben", "Cleo", "Dev"]):
        page.get_by_label(f"Seat {seat + 1}").select_option(label=name)
    page.get_by_role("button", name="Deal contract 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Contract 1 of 7 · Two books")
    expect(page.locator(".deal")).to_contain_text("Ann deals")
    expect(page.locator(".deal")).to_contain_text("Ben plays first")

    # Two May I?s for Ben, a third refused with the limit named, an undo gives one back.
    ben = row(page, "Ben")
    for left in [1, 0]:
        ben.get_by_role("button", name="May I?").click()
        expect(row(page, "Ben").locator(".coin:not(.spent)")).to_have_count(left)
    row(page, "Ben").get_by_role("button", name="May I?").click()
    expect(page.get_by_role("alert")).to_contain_text("the limit is 2 a round")
    page.get_by_role("button", name="Undo").click()
    expect(row(page, "Ben").locator(".coin:not(.spent)")).to_have_count(1)

    # Dev goes down; Cleo claims Dev's discard onto a meld of the table: Shanghai!
    row(page, "Dev").get_by_role("button", name="Went down").click()
    expect(row(page, "Dev").locator(".badge")).to_have_text("Down")
    cleo = row(page, "Cleo")
    cleo.locator("summary", has_text="Shanghai!").click()
    cleo.get_by_role("button", name="Claimed Dev's discard").click()
    expect(page.locator(".undo-bar")).to_contain_text("Cleo claimed Dev's discard")

    game = Game.objects.get()
    # Contract by contract: Ann, Ben, Cleo, Dev, Ann, Ben, Ann go out; the others hold K 7 (15).
    winners = ["Ann", "Ben", "Cleo", "Dev", "Ann", "Ben", "Ann"]
    for number, winner in enumerate(winners, start=1):
        expect(page.get_by_role("heading", level=1)).to_contain_text(f"Contract {number} of 7")
        if number < 7:  # in contract 7 going down is going out: there is no "Went down"
            row(page, winner).get_by_role("button", name="Went down").click()
        else:
            expect(row(page, winner).get_by_role("button", name="Went down")).to_have_count(0)
        row(page, winner).get_by_role("button", name="Went out").click()
        entries = page.locator("fieldset.hand-entry")
        expect(entries).to_have_count(3)
        for index in range(3):
            entry = entries.nth(index)
            entry.get_by_role("button", name="K", exact=True).click()
            entry.get_by_role("button", name="7", exact=True).click()
            expect(entry.locator(".hand-total")).to_have_text("15 pts")
        page.get_by_role("button", name=re.compile(f"Save contract {number}")).click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Game over")
    # Edit contract 7: Ben held only a 7 (5 instead of 15).
    page.get_by_role("link", name="C7 ✎").click()
    ben_entry = page.locator("fieldset.hand-entry").filter(has_text="Ben")
    ben_entry.get_by_label("Cards", exact=True).fill("7")
    page.get_by_role("button", name="Save the corrected scores").click()

    # Ann went out 3 times (4 x 15 = 60); Ben twice (5 x 15 - 10 = 65); Cleo and Dev once (90).
    # Columns: place, player, total, rounds won, Shanghai claims, Shanghai protects, May I?s used.
    summary = page.locator("table.summary tbody tr")
    expect(summary.nth(0).locator("td")).to_have_text(["1", "Ann", "60", "3", "0", "0", "0"])
    expect(summary.nth(1).locator("td")).to_have_text(["2", "Ben", "65", "2", "0", "0", "1"])
    expect(summary.nth(2).locator("td")).to_have_text(["3", "Cleo", "90", "1", "1", "0", "0"])
    expect(summary.nth(3).locator("td")).to_have_text(["3", "Dev", "90", "1", "0", "0", "0"])
    expect(page.locator(".deal")).to_contain_text("Ann wins with 60 points")

    game.refresh_from_db()
    assert game.finished_at is not None
    ben_first = Hand.objects.get(round__game=game, round__number=1, seat__player__name="Ben")
    assert ben_first.may_i_used == 1
    assert Event.objects.filter(kind=Event.Kind.SCORE_EDITED).count() == 1


def test_a_five_player_round_takes_at_most_fifteen_taps(tablet, log_in):
    """The issue's goal: once the hands are known, went out + keypad + save in 15 taps or fewer."""
    page = tablet
    game = make_game(players=5)
    log_in(page, game.club.memberships.get().user, at=game.get_absolute_url())
    taps = 0

    def tap(locator):
        nonlocal taps
        locator.click()
        taps += 1

    names = [seat.player.name for seat in game.seats.order_by("position")]
    tap(row(page, names[0]).get_by_role("button", name="Went out"))
    hands = [["K", "7", "JK"], ["A", "2"], ["Q", "Q", "3"], ["9"]]
    entries = page.locator("fieldset.hand-entry")
    for index, hand in enumerate(hands):
        for rank in hand:
            tap(entries.nth(index).get_by_role("button", name=rank, exact=True))
    tap(page.get_by_role("button", name=re.compile("Save contract 1")))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Contract 2 of 7")
    assert taps <= 15
    totals = dict(Hand.objects.filter(round__number=1).values_list("seat__player__name", "points"))
    assert [totals[name] for name in names] == [0, 65, 25, 25, 10]


def test_the_round_edit_greys_out_the_hand_of_whoever_the_menu_says_went_out(tablet, log_in):
    page = tablet
    club = make_club()
    game = make_game(club, [make_player(club, name) for name in ["Ann", "Ben", "Cleo"]])
    play_round(game, went_out=0, points=[15, 20])
    log_in(page, club.memberships.get().user, at=reverse("round_edit", args=[game.pk, 1]))

    def entry(name):
        return page.locator("fieldset.hand-entry").filter(has_text=name)

    def cards(name):
        return entry(name).get_by_label("Cards", exact=True)

    expect(cards("Ann")).to_be_disabled()
    expect(entry("Ann")).to_contain_text("Ann went out: this hand scores 0 and is not counted.")
    expect(entry("Ben").locator(".not-counted-note")).to_be_hidden()
    expect(entry("Ben").locator(".hand-total")).to_have_text("15 pts")

    # Ben went out, not Ann: his hand greys out, hers is typed in, and the save goes through.
    page.get_by_label("Went out").select_option(label="Ben")
    expect(cards("Ben")).to_be_disabled()
    expect(entry("Ben").locator(".not-counted-note")).to_be_visible()
    # Greyed out, the hand says no total of its own: it scores 0, as its note says.
    expect(entry("Ben").locator(".hand-total")).to_be_hidden()
    expect(cards("Ann")).to_be_enabled()
    expect(entry("Ann").locator(".not-counted-note")).to_be_hidden()
    entry("Ann").get_by_role("button", name="K", exact=True).click()
    page.get_by_role("button", name="Save the corrected scores").click()
    expect(page.locator(".flash")).to_contain_text("Saved: Contract 1 scores edited: Ben went out")
    first = game.rounds.get(number=1)
    assert first.went_out.player.name == "Ben"
    assert not first.hands.get(seat__player__name="Ann").went_down


def test_a_message_of_the_last_page_goes_once_the_page_moves_on(tablet, log_in):
    page = tablet
    log_in(page, make_user(), at=reverse("club_new"))
    page.get_by_label("Name").fill("Thursday")
    page.get_by_role("button", name="Create the club").click()
    flash = page.locator(".flash")
    expect(flash).to_contain_text("Thursday is ready. Add the players next.")
    for name in ["Ann", "Ben", "Cleo"]:
        page.get_by_label("Player name").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator("#players")).to_contain_text(name)
    expect(flash).to_have_count(0)  # they are being added: no longer "next"

    club = Club.objects.get()
    game = make_game(club, list(club.players.order_by("name")))
    for _ in range(6):
        play_round(game, went_out=0, points=[15, 20])
    act(services.round_record_went_out, game, seat=seats(game)[0])
    page.goto(reverse("round_edit", args=[game.pk, 1]))
    page.get_by_label("Went out").select_option(label="Ben")
    page.locator("fieldset.hand-entry").filter(has_text="Ann").get_by_label("or points").fill("5")
    page.get_by_role("button", name="Save the corrected scores").click()
    expect(flash).to_contain_text("Saved: Contract 1 scores edited: Ben went out")
    for name in ["Ben", "Cleo"]:
        page.locator("fieldset.hand-entry").filter(has_text=name).get_by_label("or points").fill(
            "5"
        )
    page.get_by_role("button", name=re.compile("Save contract 7")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Game over")
    expect(flash).to_have_count(0)  # saved before the last contract: not news at game over
