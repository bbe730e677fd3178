"""Time a club's JSON export and import (what the request does, what the worker does), the CSV,
and recounting its standings (the owners' rebuild, and deleting its first finished table: the
request, then the worker's recount), on a club of N finished tables.

    DJANGO_DEBUG=true DJANGO_DATA_DIR=/tmp/archive-bench .venv/bin/python -m tools.archive_bench 100

Uses the database the settings name (SQLite in DJANGO_DATA_DIR, or DATABASE_URL), migrates it,
and leaves the two clubs there. The last line is JSON.
"""

import json
import os
import random
import sys
import time


def main(tables: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    import rules
    from scorekeeper import services
    from scorekeeper.models import Recount
    from scorekeeper.selectors import archive, score_sheet

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="archive-bench")
    club = services.club_create(user=user, name=f"Bench {time.time():.0f}")
    players = [
        services.player_create(user=club.owner(), club=club, name=f"Player {n}") for n in range(8)
    ]
    dice = random.Random(7)
    for _ in range(tables):
        game = services.game_start(
            club=club,
            user=user,
            players=dice.sample(players, k=5),
            first_dealer=0,
            season=club.seasons.first(),
            profile=club.profiles.first(),
        )
        seats = list(game.seats.all())
        for _ in range(7):
            winner = dice.choice(seats)
            services.may_i_spend(game=game, version=game.version, seat=seats[0], user=user)
            services.round_record_went_out(game=game, version=game.version, seat=winner, user=user)
            entries = {
                seat.pk: rules.HandEntry(cards=tuple(rules.parse_ranks(dice.choice(["K 7", "A"]))))
                for seat in seats
                if seat != winner
            }
            services.round_score(game=game, version=game.version, entries=entries, user=user)

    started = time.perf_counter()
    document = archive.club_export_json(club)
    exported = time.perf_counter() - started
    started = time.perf_counter()
    sheet = score_sheet.score_sheet_csv(club)
    csv_seconds = time.perf_counter() - started
    copy = services.club_create(user=user, name=f"{club.name} copy")
    started = time.perf_counter()
    queued = services.club_import_queue(club=copy, user=user, document=document.encode())
    import_request = time.perf_counter() - started
    started = time.perf_counter()
    counts = services.club_import_run.call(queued.pk)  # as a worker runs it
    imported = time.perf_counter() - started

    started = time.perf_counter()
    services.results_rebuild(club=club)
    rebuilt = time.perf_counter() - started
    started = time.perf_counter()
    services.ratings_replay(club_id=club.pk)
    replayed = time.perf_counter() - started
    first = club.games.finished().order_by("finished_at", "pk").first()
    started = time.perf_counter()
    services.game_delete(game=first, user=user)
    delete_request = time.perf_counter() - started
    started = time.perf_counter()
    services.recount_run.call(Recount.objects.get(club=club).pk)
    recounted = time.perf_counter() - started
    return {
        "tables": tables,
        "rows": sum(counts.values()),
        "json_mb": round(len(document.encode()) / 2**20, 2),
        "export_s": round(exported, 2),
        "import_request_s": round(import_request, 3),
        "import_s": round(imported, 2),
        "csv_rows": sheet.count("\n") - 1,
        "csv_s": round(csv_seconds, 2),
        "rebuild_s": round(rebuilt, 3),
        "replay_s": round(replayed, 3),
        "delete_first_table_request_s": round(delete_request, 3),
        "recount_s": round(recounted, 3),
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)))
