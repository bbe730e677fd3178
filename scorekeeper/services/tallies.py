"""Each player's head to head and points left per contract, by season, kept with the results.

A player page showed these by reading every one of the player's results; the `Rivalry` and
`PointsLeft` rows hold them summed, so it reads a row per rival and contract instead. They change
wherever Result rows are written or deleted (`scorekeeper.services.ratings`, a table deleted, a
club imported), in the same transaction, by what those rows add or take away: unlike a rating,
neither figure depends on the order of the tables, so nothing later is replayed. Once the results
are right, so are these: `tallies_rebuild` adds them up again from a club's results."""

from collections import defaultdict
from collections.abc import Iterable

from django.db import transaction

from scorekeeper.models import PointsLeft, Result, Rivalry

# The fields of a Result these are added up from.
TALLIED = ["player", "season", "place", "others", "points_left"]


def _changes(removed: Iterable[Result], added: Iterable[Result]) -> tuple[dict, dict]:
    """What the results change, by (player, season, other player) and (player, season,
    contract): [games, ahead, behind] and [rounds, points]."""
    rivals = defaultdict(lambda: [0, 0, 0])
    contracts = defaultdict(lambda: [0, 0])
    for sign, results in ((-1, removed), (1, added)):
        for result in results:
            for other, place in result.others.items():
                change = rivals[result.player_id, result.season_id, int(other)]
                change[0] += sign
                change[1] += sign * (result.place < place)
                change[2] += sign * (result.place > place)
            for contract, points in enumerate(result.points_left, start=1):
                change = contracts[result.player_id, result.season_id, contract]
                change[0] += sign
                change[1] += sign * points
    return rivals, contracts


def _apply(model, key: str, fields: list[str], changes: dict) -> None:
    """Add `changes` ({(player, season, key): [amounts]}, in the order of `fields`) to the
    model's rows, making the rows missing and deleting those whose first field, the tables or
    rounds counted, comes to zero."""
    changes = {where: amounts for where, amounts in changes.items() if any(amounts)}
    if not changes:
        return
    kept = model.objects.filter(
        player_id__in={player for player, _, _ in changes},
        season_id__in={season for _, season, _ in changes},
    )
    rows = {(row.player_id, row.season_id, getattr(row, key)): row for row in kept}
    for player, season, value in changes.keys() - rows.keys():
        rows[player, season, value] = model(
            player_id=player, season_id=season, **{key: value}, **dict.fromkeys(fields, 0)
        )
    for where, amounts in changes.items():
        row = rows[where]
        for field, amount in zip(fields, amounts, strict=True):
            setattr(row, field, getattr(row, field) + amount)
    counted, emptied = [], []
    for where in changes:
        row = rows[where]
        (counted if getattr(row, fields[0]) else emptied).append(row)
    model.objects.filter(pk__in=[row.pk for row in emptied if row.pk]).delete()
    model.objects.bulk_update([row for row in counted if row.pk], fields)
    model.objects.bulk_create([row for row in counted if not row.pk])


# No savepoint of its own inside a service's transaction: a failure fails the whole change.
@transaction.atomic(savepoint=False)
def tallies_change(*, removed: Iterable[Result] = (), added: Iterable[Result] = ()) -> None:
    """Take the `removed` results' tables out of their players' head to head and points left,
    and add the `added` ones'. Call it where those Result rows are deleted or written, holding
    the club's lock (two tables finishing at once would each add to the rows read before)."""
    rivals, contracts = _changes(removed, added)
    _apply(Rivalry, "other_id", ["games", "ahead", "behind"], rivals)
    _apply(PointsLeft, "contract", ["rounds", "points"], contracts)


@transaction.atomic
def tallies_rebuild(*, club_id: int) -> None:
    """Add up the club's head to head and points left again from its results."""
    Rivalry.objects.filter(player__club_id=club_id).delete()
    PointsLeft.objects.filter(player__club_id=club_id).delete()
    results = Result.objects.filter(club_id=club_id).only(*TALLIED)
    tallies_change(added=results.iterator(chunk_size=2000))
