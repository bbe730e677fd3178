"""Each table action declared once (scorekeeper/actions.py): every kind of event has its words,
and the round screen's buttons carry the offline queue's from there (templatetags/actions.py)."""

import html
import re

import pytest

from scorekeeper.actions import ACTIONS
from scorekeeper.models import Event
from tests.factories import go_out, make_game, member_of, seats

pytestmark = pytest.mark.django_db


def taps(response) -> set[tuple[str, str]]:
    """Each tap's (data-label, data-shows) on the page."""
    found = re.findall(r'data-label="([^"]*)"(?: data-shows="([^"]*)")?', response.text)
    return {(html.unescape(label), shows) for label, shows in found}


def test_every_kind_of_event_is_declared():
    assert set(ACTIONS) == set(Event.Kind)
    assert all(action.history for action in ACTIONS.values())


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
