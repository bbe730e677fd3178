"""The deal (rules/deal.py): who deals each contract and who plays first."""

import pytest

from rules import dealer_seat, first_player_seat, next_table_first_dealer


@pytest.mark.parametrize(
    ("first_dealer", "contract", "players", "dealer"),
    [(0, 1, 4, 0), (2, 1, 4, 2), (3, 2, 4, 0), (1, 7, 3, 1), (4, 3, 5, 1)],
)
def test_the_deal_moves_one_seat_left_each_contract(first_dealer, contract, players, dealer):
    assert dealer_seat(first_dealer, contract, players) == dealer


@pytest.mark.parametrize(("dealer", "players", "first"), [(0, 3, 1), (2, 3, 0), (3, 5, 4)])
def test_the_player_on_the_dealers_left_plays_first(dealer, players, first):
    assert first_player_seat(dealer, players) == first


@pytest.mark.parametrize(("first_dealer", "players", "next_one"), [(0, 3, 1), (2, 3, 0), (4, 5, 0)])
def test_playing_again_moves_the_first_deal_one_seat_left(first_dealer, players, next_one):
    assert next_table_first_dealer(first_dealer, players) == next_one
