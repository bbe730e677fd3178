"""Places at the end of (or during) a game: lowest total wins, ties settled by the house rules."""

from collections.abc import Hashable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    player: Hashable
    total: int
    place: int


def places(
    totals: Mapping[Hashable, int],
    *,
    tie_break: str = "shared",
    rounds_won: Mapping[Hashable, int] | None = None,
    may_i_used: Mapping[Hashable, int] | None = None,
) -> list[Standing]:
    """Rank players by total penalty points, lowest first.

    Equal totals share a place (1, 2, 2, 4) unless `tie_break` is `most_rounds_won` or
    `fewest_may_i`, which order the tied players by that figure; players equal on it too still
    share the place.
    """
    rounds_won = rounds_won or {}
    may_i_used = may_i_used or {}

    def key(player):
        if tie_break == "most_rounds_won":
            return (totals[player], -rounds_won.get(player, 0))
        if tie_break == "fewest_may_i":
            return (totals[player], may_i_used.get(player, 0))
        return (totals[player],)

    ordered = sorted(totals, key=key)
    standings = []
    for index, player in enumerate(ordered):
        if index and key(player) == key(ordered[index - 1]):
            place = standings[-1].place
        else:
            place = index + 1
        standings.append(Standing(player=player, total=totals[player], place=place))
    return standings
