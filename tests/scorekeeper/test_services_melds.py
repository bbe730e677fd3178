"""Melds laid on the table (scorekeeper/services/melds.py)."""

import pytest

import rules
from scorekeeper import services
from scorekeeper.models import Event, TableMeld
from tests.factories import go_down, make_club, make_game, seats, table_rows

pytestmark = pytest.mark.django_db


def test_recording_three_runs_in_a_no_discard_contract_goes_out_with_them(last_contract):
    game = last_contract
    ann = seats(game)[0]
    before = table_rows(game)
    melds = rules.parse_melds("3H 4H 5H 6H | 8S 9S 10S JS | 2D 3D 4D 5D")
    services.melds_record(
        game=game, version=game.version, seat=ann, melds=melds, user=game.created_by
    )
    round_ = game.rounds.get(number=7)
    assert round_.went_out == ann
    assert round_.melds.count() == 3
    assert list(round_.events.values_list("kind", flat=True)) == [Event.Kind.WENT_OUT]
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert table_rows(game) == before


# Text as long as the app lets it be is stored whole (PostgreSQL refuses what a column cannot hold)


def test_a_book_of_every_copy_under_many_decks_lies_on_the_table_whole():
    club = make_club()
    many = rules.HouseRules(decks=4, jokers=8)
    profile = services.profile_save(
        user=club.owner(), club=club, name="Four decks", house_rules=many
    )
    game = make_game(club, 3, profile=profile)
    book = " ".join(["10H", "10S", "10D", "10C"] * 4 + ["JK"])
    go_down(game, seats(game)[0], f"{book} | 9H 9S 9D")
    meld = TableMeld.objects.get(owner__position=0, cards__startswith="10")
    assert len(meld.card_list) == 17
