import logging
import os
import signal
import subprocess
import sys
import threading
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import DatabaseError, close_old_connections, connections

from recognizer.limits import READER_THREADS
from scorekeeper.services.tasks import (
    photos_give_up,
    recounts_queue_again,
    task_results_prune,
    tasks_doorbell_ring,
    tasks_requeue_stale,
    uploads_drop_stale,
)

logger = logging.getLogger(__name__)

UPKEEP_SECONDS = 5
GIVE_UP_SECONDS = 60
CLEANUP_SECONDS = 600
# While the database does not answer, the upkeep is tried again after these many seconds,
# doubling up to the last; the workers are started again meanwhile all the same.
OUTAGE_WAITS = (5, 10, 20, 40, 60)


class Command(BaseCommand):
    help = (
        "The Procfile's worker: DJANGO_TASK_WORKERS processes of `task_worker` running the "
        "queued tasks (photos to read, imports, rebuilds) at a lower CPU priority "
        "(DJANGO_TASK_NICENESS: they yield to the web workers, while this upkeep, which costs "
        "little, keeps its own), each started again if it dies; every "
        "few seconds, a task whose worker vanished is queued again, every minute a photo whose "
        "task failed is given up, and every ten minutes a recount whose task failed is queued "
        "again and what nobody will collect is deleted. A database that does not answer is "
        "tried again, less often each time, and never ends it."
    )

    def add_arguments(self, parser):
        parser.add_argument("--processes", type=int, default=settings.TASK_WORKERS)
        # Without Redis, a photo waits for an idle worker at most this long
        # (docs/photo-timing.md): a fiftieth of a second costs an idle worker fifty cheap
        # queries a second. With Redis, a queued task wakes a worker (docs/scaling.md).
        parser.add_argument(
            "--interval", type=float, default=0.02, help="seconds an idle worker waits"
        )

    def handle(self, *args, processes, interval, **options):
        # Each reader on one thread (recognizer/limits.py); an operator's own value is kept.
        environment = {**READER_THREADS, **os.environ}
        stopping = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stopping.set())
        command = [
            sys.executable,
            str(settings.BASE_DIR / "manage.py"),
            "task_worker",
            "--interval",
            str(interval),
        ]
        workers: dict[int, subprocess.Popen] = {}
        last = {"give_up": 0.0, "cleanup": 0.0}
        failures = 0
        upkeep_at = 0.0
        self.stdout.write(f"Running {processes} task worker(s).")
        while not stopping.is_set():
            for slot in range(processes):
                if slot not in workers or workers[slot].poll() is not None:
                    workers[slot] = subprocess.Popen(command, env=environment)
            if time.monotonic() >= upkeep_at:
                try:
                    self.upkeep(last)
                except Exception as error:
                    # A broken connection is never used again: Django connects anew.
                    connections.close_all()
                    wait = OUTAGE_WAITS[min(failures, len(OUTAGE_WAITS) - 1)]
                    failures += 1
                    if isinstance(error, DatabaseError):
                        self.stdout.write(
                            f"The database does not answer ({type(error).__name__}): "
                            f"upkeep again in {wait} s."
                        )
                    else:
                        logger.exception("task upkeep failed: again in %s s", wait)
                    upkeep_at = time.monotonic() + wait
                else:
                    if failures:
                        self.stdout.write("The database answers again.")
                    failures = 0
                    upkeep_at = time.monotonic() + UPKEEP_SECONDS
            self.stdout.flush()
            stopping.wait(UPKEEP_SECONDS)
        for worker in workers.values():
            worker.terminate()
        deadline = time.monotonic() + 20
        for worker in workers.values():
            try:
                worker.wait(timeout=max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                worker.kill()

    def upkeep(self, last: dict[str, float]) -> None:
        """Each piece of upkeep that is due; `last` says when each ran."""
        # A connection the database closed (it restarted) is noticed and replaced here.
        close_old_connections()
        requeued = tasks_requeue_stale()
        if requeued:
            self.stdout.write(f"Queued again {requeued} task(s) whose worker vanished.")
            tasks_doorbell_ring(tasks=requeued)
        now = time.monotonic()
        if now - last["give_up"] > GIVE_UP_SECONDS:
            given_up = photos_give_up()
            if given_up:
                self.stdout.write(f"Gave up {given_up} photo(s) whose task failed.")
            last["give_up"] = now
        if now - last["cleanup"] > CLEANUP_SECONDS:
            recounts_queue_again()
            uploads_drop_stale()
            task_results_prune()
            last["cleanup"] = now
