"""Nothing lost: the database compared with what the load generator recorded.

Every write to a table moves `Game.version` on by one and keeps one Event, so the table's
events, oldest first, are its accepted writes in version order: the write sent with version v
made the v-th event. The check reports, in words, every way the database differs:

- an accepted write whose event is missing, or is of another kind or by another account;
- an event no accepted write explains (a refused write saved, or a write saved twice), unless a
  write lost in flight (a 5xx or a cut connection: saved or not) explains it;
- a table whose version is not its number of events;
- a finished table whose stored totals are not the sum of its rounds;
- a hand over its May I? limit; rows that point across tables; photo rows without their file
  and photo files without their row; fewer Check rows than questions answered.

    python -m tools.loadtest.consistency record.json tables.json   # exit status 1 on a difference
"""

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path


def table_problems(pk: int, writes: list[dict], events: list[tuple[str, str]]) -> list[str]:
    """How one table's events, (kind, username) oldest first, differ from its recorded writes."""
    problems = []
    accepted, lost = {}, defaultdict(list)
    for write in writes:
        if write["outcome"] == "accepted":
            if write["version"] in accepted:
                problems.append(f"table {pk}: two writes accepted at version {write['version']}")
            accepted[write["version"]] = write
        elif write["outcome"] == "unknown":
            lost[write["version"]].append(write)

    def made(write, event) -> bool:
        return event[0] in write["kinds"] and event[1] == write["user"]

    for version, write in sorted(accepted.items()):
        if version >= len(events):
            problems.append(f"table {pk}: accepted {write['action']} at version {version} is lost")
        elif not made(write, events[version]):
            problems.append(
                f"table {pk}: accepted {write['action']} by {write['user']} at version {version}"
                f" is not in the database (found {events[version][0]} by {events[version][1]})"
            )
    for version, event in enumerate(events):
        if version not in accepted and not any(made(w, event) for w in lost[version]):
            problems.append(
                f"table {pk}: event {version} ({event[0]} by {event[1]}) was not accepted: "
                "a refused write saved, or one saved twice"
            )
    return problems


def database_problems(record: dict, tables: list[int]) -> list[str]:
    """Every difference between the database and `record` (the load generator's), for `tables`."""
    from django.db.models import F

    from scorekeeper import selectors
    from scorekeeper.models import Check, Event, Game, Hand, Photo, TableMeld

    problems = []
    by_table = defaultdict(list)
    for write in record["writes"]:
        by_table[write["table"]].append(write)
    for game in Game.objects.filter(pk__in=tables).order_by("pk"):
        events = list(
            game.events.order_by("pk").values_list("kind", "created_by__username").iterator()
        )
        problems += table_problems(game.pk, by_table[game.pk], events)
        if game.version != len(events):
            problems.append(f"table {game.pk}: version {game.version} but {len(events)} events")
        answered = record["checks"].get(str(game.pk), 0)
        if game.checks.count() < answered:
            problems.append(f"table {game.pk}: {answered} questions answered, fewer Check rows")
        if game.finished_at:
            board = selectors.game_board(game)
            summed = {line.seat.player_id: sum(p or 0 for p in line.points) for line in board.lines}
            stored = dict(game.results.values_list("player_id", "total"))
            if stored != summed:
                problems.append(f"table {game.pk}: totals {stored} but its rounds sum to {summed}")
    over = Hand.objects.filter(may_i_used__gt=F("may_i_limit"))
    problems += [
        f"hand {pk}: May I? used over its limit" for pk in over.values_list("pk", flat=True)
    ]
    across = (
        list(Hand.objects.exclude(seat__game=F("round__game")).values_list("pk", flat=True))
        + list(Event.objects.exclude(round__isnull=True).exclude(round__game=F("game")))
        + list(TableMeld.objects.exclude(owner__game=F("round__game")))
        + list(Check.objects.exclude(round__game=F("game")))
    )
    problems += [f"a row that points across tables: {row}" for row in across]
    named = set(Photo.objects.exclude(image="").values_list("image", flat=True))
    stored = stored_files(Photo._meta.get_field("image").storage, "photos")
    problems += [f"photo row without its file: {name}" for name in sorted(named - stored)]
    problems += [f"photo file without its row: {name}" for name in sorted(stored - named)]
    return problems


def stored_files(storage, folder: str) -> set[str]:
    """Every file's name under `folder` in a storage (MEDIA_ROOT or a bucket), subfolders too."""
    try:
        folders, files = storage.listdir(folder)
    except FileNotFoundError:  # on disk, before the first photo
        return set()
    names = {f"{folder}/{name}" for name in files}
    for sub in folders:
        names |= stored_files(storage, f"{folder}/{sub}")
    return names


def settled(tables: list[int], *, quiet: float = 3.0, timeout: float = 180.0) -> float:
    """Wait until the tables' versions have not moved for `quiet` seconds: when Locust stops,
    requests it sent may still wait in gunicorn's queue, and a check read meanwhile would see
    half of a write. The seconds waited."""
    from scorekeeper.models import Game

    started = last_change = time.monotonic()
    versions = None
    while time.monotonic() - last_change < quiet:
        now = list(Game.objects.filter(pk__in=tables).order_by("pk").values_list("version"))
        if now != versions:
            versions, last_change = now, time.monotonic()
        if time.monotonic() - started > timeout:
            break
        time.sleep(0.5)
    return time.monotonic() - started


def main(record_path: str, tables_path: str) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    record = json.loads(Path(record_path).read_text())
    tables = [table["table"] for table in json.loads(Path(tables_path).read_text())["tables"]]
    from django.db import connection, transaction

    waited = settled(tables)
    with transaction.atomic():
        # One snapshot for every read: a write still arriving is then wholly in or wholly out
        # (it was recorded as in flight, so either is right), never half seen.
        if connection.vendor == "postgresql":
            connection.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        problems = database_problems(record, tables)
    writes = record["writes"]
    outcomes = {
        o: sum(w["outcome"] == o for w in writes) for o in ("accepted", "refused", "unknown")
    }
    print(
        f"consistency ({waited:.0f} s for the last queued requests): {len(tables)} tables, ", end=""
    )
    print(f"{len(writes)} writes {outcomes}: ", end="")
    print("nothing lost, nothing extra" if not problems else f"{len(problems)} PROBLEMS")
    for problem in problems:
        print(f"  {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
