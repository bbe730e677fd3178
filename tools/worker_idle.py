"""What an idle task worker costs the database, and how soon it takes a task queued: the
Procfile's worker (`manage.py task_workers --processes 1`) on the PostgreSQL that DATABASE_URL
names, without Redis (it looks every --interval seconds) or, with --redis, with a Redis of its
own (tools/redis_server.py) as DJANGO_CACHE_URL (it sleeps until a queued task rings).

    DATABASE_URL=postgres://scorekeeper:scorekeeper@127.0.0.1:5432/sk_idle \\
      .venv/bin/python -m tools.worker_idle [--redis] [--seconds 30] [--tasks 20]

- **transactions a second**: PostgreSQL's own count for the database (pg_stat_database's
  xact_commit + xact_rollback) over --seconds while nothing is queued: each statement outside
  a transaction counts one, so this is the worker's queries a second, give or take the BEGIN
  and COMMIT around its look for a task (the parent's upkeep, every five seconds, included).
  Use a database nothing else uses: it counts every client of that database.
- **pickup**: for each of --tasks tasks queued one by one, a second or so apart (the worker idle
  each time), the time from its queuing to a worker's claiming it (the task row's enqueued_at
  to started_at). The task reads a photo that is not there, so it ends at once.

Migrates the database; the last line is JSON."""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def transactions(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as database:
        return database.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database "
            "WHERE datname = current_database()"
        ).fetchone()[0]


def main(*, seconds: float, tasks: int, interval: float) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections
    from django_tasks_db.models import DBTaskResult

    from scorekeeper.services.photos import photo_read

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    DBTaskResult.objects.all().delete()
    # A backend's counts reach pg_stat_database when it ends, at the latest: not in the window.
    connections.close_all()
    url = os.environ["DATABASE_URL"]
    worker = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "task_workers", "--processes", "1"]
        + ["--interval", str(interval)],
        cwd=ROOT,
    )
    try:
        time.sleep(8)  # the worker started, its first upkeep done
        before = transactions(url)
        time.sleep(seconds)
        # Each backend reports its counts within a second or so of its last transaction.
        time.sleep(1.5)
        idle = (transactions(url) - before - 1) / (seconds + 1.5)
        pickups = []
        for _ in range(tasks):
            time.sleep(random.uniform(0.5, 1.5))
            queued = photo_read.enqueue(0)  # no such photo: the task ends at once
            while (row := DBTaskResult.objects.get(id=queued.id)).started_at is None:
                time.sleep(0.005)
            pickups.append((row.started_at - row.enqueued_at).total_seconds())
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    return {
        "redis": bool(settings.CACHE_URL),
        "interval": interval,
        "idle_transactions_a_second": round(idle, 2),
        "pickup_median_s": round(statistics.median(pickups), 4),
        "pickup_max_s": round(max(pickups), 4),
        "tasks": tasks,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", action="store_true", help="with a Redis of its own")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--interval", type=float, default=0.02, help="task_workers' --interval")
    options = parser.parse_args()
    with ExitStack() as stack:
        if options.redis:
            from tools.redis_server import RedisServer

            os.environ["DJANGO_CACHE_URL"] = stack.enter_context(RedisServer()).url
        report = main(seconds=options.seconds, tasks=options.tasks, interval=options.interval)
    print(json.dumps(report))
