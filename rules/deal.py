"""The deal: who deals each contract and who plays first, seats counted 0 to players - 1, each
seat's left-hand neighbour the next one."""

from __future__ import annotations


def dealer_seat(first_dealer: int, contract: int, players: int) -> int:
    """The seat that deals contract `contract` (counting from 1): the deal moves one seat to the
    left each round, from `first_dealer` in the first."""
    return (first_dealer + contract - 1) % players


def first_player_seat(dealer: int, players: int) -> int:
    """The seat that plays first: the player on the dealer's left."""
    return (dealer + 1) % players


def next_table_first_dealer(first_dealer: int, players: int) -> int:
    """Who deals first when the same players play again: the seat on the left of the one that
    dealt first before."""
    return (first_dealer + 1) % players
