"""Each table action declared once (scorekeeper/actions.py): every kind of event has its words,
and the round screen's buttons carry the offline queue's from there (templatetags/actions.py);
each tap has its address, its form and its service from there, and each kind its undo beside
its service."""

import html
import re

import pytest
from django.urls import reverse

from scorekeeper.actions import ACTIONS, TAPS, Tap
from scorekeeper.models import Event
from scorekeeper.services.events import UNDO
from scorekeeper.system_checks import tap_problems
from tests.factories import go_out, make_game, member_of, seats

pytestmark = pytest.mark.django_db


def taps(response) -> set[tuple[str, str]]:
    """Each tap's (data-label, data-shows) on the page."""
    found = re.findall(r'data-label="([^"]*)"(?: data-shows="([^"]*)")?', response.text)
    return {(html.unescape(label), shows) for label, shows in found}


def test_every_kind_of_event_is_declared():
    assert set(ACTIONS) == set(Event.Kind)
    assert all(action.history for action in ACTIONS.values())


def test_every_kind_but_undo_itself_can_be_taken_back():
    assert set(UNDO) == set(Event.Kind) - {Event.Kind.UNDO}


def test_each_tap_has_its_address_and_names_a_form_and_service_that_exist():
    assert set(TAPS) >= {"may-i", "went-down", "shanghai", "went-out"}
    for word, tap in TAPS.items():
        assert reverse(tap.name, args=[7]) == f"/tables/7/{word}/"
    assert tap_problems(TAPS) == []


def test_a_tap_that_names_what_is_not_there_stops_the_start():
    typo = Tap("Passed", service="tables.seat_passes")
    problems = tap_problems({"Passed": typo})
    assert len(problems) == 2
    assert "is not lower-case words and hyphens" in problems[0]
    assert "scorekeeper.services.tables.seat_passes" in problems[1]


def test_the_round_screens_taps_are_labelled_for_the_queue_from_the_declaration(client):
    game = make_game(players=3)
    ann, ben, _ = (seat.player.name for seat in seats(game))
    client.force_login(member_of(game))
    assert taps(client.get(game.get_absolute_url())) >= {
        (f"{ann}: May I?", "coin"),
        (f"{ann} went down", "down"),
        (f"{ann} claimed {ben}'s discard", "tally"),
        (f"{ben} protected own discard", "tally"),
        (f"{ben} went out", "score-entry"),
        ("the scores of contract 1", "scores"),  # the score entry kept for going out offline
    }


def test_the_score_entry_and_undo_are_labelled_and_undo_takes_back_a_tap_that_waits(client):
    game = make_game(players=3)
    go_out(game, seats(game)[0])
    client.force_login(member_of(game))
    page = client.get(game.get_absolute_url())
    assert taps(page) == {("the scores of contract 1", "scores"), ("Undo", "")}
    assert re.search(r'data-label="Undo" data-takes-back=""', page.text)
