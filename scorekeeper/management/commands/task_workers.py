import signal
import subprocess
import sys
import threading
import time

from django.conf import settings
from django.core.management.base import BaseCommand

from scorekeeper.services.tasks import (
    recounts_queue_again,
    tasks_requeue_stale,
    uploads_drop_stale,
)

UPKEEP_SECONDS = 5
CLEANUP_SECONDS = 600


class Command(BaseCommand):
    help = (
        "The Procfile's worker: DJANGO_TASK_WORKERS processes of `db_worker` running the queued "
        "tasks (photos to read, imports, rebuilds), each started again if it dies; every few "
        "seconds, a task whose worker vanished is queued again, and every ten minutes a recount "
        "whose task failed is queued again and what nobody will collect is deleted."
    )

    def add_arguments(self, parser):
        parser.add_argument("--processes", type=int, default=settings.TASK_WORKERS)
        # A photo waits for an idle worker at most this long (docs/photo-timing.md): a fiftieth
        # of a second costs an idle worker fifty cheap queries a second.
        parser.add_argument(
            "--interval", type=float, default=0.02, help="seconds an idle worker waits"
        )

    def handle(self, *args, processes, interval, **options):
        stopping = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stopping.set())
        command = [
            sys.executable,
            str(settings.BASE_DIR / "manage.py"),
            "db_worker",
            "--interval",
            str(interval),
            "--no-reload",
        ]
        workers: dict[int, subprocess.Popen] = {}
        cleaned = 0.0
        self.stdout.write(f"Running {processes} task worker(s).")
        while not stopping.is_set():
            for slot in range(processes):
                if slot not in workers or workers[slot].poll() is not None:
                    workers[slot] = subprocess.Popen(command)
            requeued = tasks_requeue_stale()
            if requeued:
                self.stdout.write(f"Queued again {requeued} task(s) whose worker vanished.")
            if time.monotonic() - cleaned > CLEANUP_SECONDS:
                recounts_queue_again()
                uploads_drop_stale()
                cleaned = time.monotonic()
            stopping.wait(UPKEEP_SECONDS)
        for worker in workers.values():
            worker.terminate()
        deadline = time.monotonic() + 20
        for worker in workers.values():
            try:
                worker.wait(timeout=max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                worker.kill()
