import logging
import os
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import DatabaseError, connections
from django.tasks import TaskResultStatus
from django.tasks.signals import task_finished
from django.utils.crypto import get_random_string
from django_tasks_db.compat import DEFAULT_TASK_BACKEND_ALIAS, DEFAULT_TASK_QUEUE_NAME
from django_tasks_db.management.commands.db_worker import Worker

from scorekeeper.services.tasks import (
    DATABASE_GONE,
    task_retry,
    tasks_doorbell_wait,
    worker_heartbeat,
)

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 10
# Seconds between two tries while the database does not answer: doubling, at most the last.
OUTAGE_WAITS = (0.5, 1, 2, 5)


def priority_lower(niceness: int) -> None:
    """Run this process at least `niceness` lower than the default CPU priority (as `nice`
    counts): a photo being read takes the cores only when the web workers leave them."""
    # Never raised back: only a privileged process may, and a worker started nicer stays so.
    if os.getpriority(os.PRIO_PROCESS, 0) < niceness:
        os.setpriority(os.PRIO_PROCESS, 0, niceness)


class TaskWorker(Worker):
    """django-tasks-db's worker, remembering which task it runs: a task the database's going
    away cut short is queued again once it is back."""

    running_task_id: str | None = None

    def run_task(self, db_task_result) -> None:
        self.running_task_id = db_task_result.id
        super().run_task(db_task_result)
        self.running_task_id = None


def _queue_again_if_the_database_failed_it(sender, task_result, **kwargs) -> None:
    # The database came back before the worker wrote that the task failed on it.
    if (
        task_result.status == TaskResultStatus.FAILED
        and task_result.errors
        and task_result.errors[-1].exception_class_path in DATABASE_GONE
    ):
        task_retry(task_id=task_result.id, worker_id=task_result.worker_ids[-1])


class Command(BaseCommand):
    help = (
        "One task worker, as `task_workers` runs it: django-tasks-db's `db_worker`, run batch "
        "by batch, that rides out a database that does not answer (it tries again, a little "
        "less often each time, and queues again the task it could not finish) and, with Redis, "
        "sleeps until a queued task rings for it."
    )
    # task_workers, which starts it, has checked already; a worker starts again faster.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--interval",
            type=float,
            default=0.02,
            help="seconds an idle worker waits between two looks, without Redis",
        )
        parser.add_argument(
            "--idle",
            type=float,
            default=settings.TASK_IDLE_SECONDS,
            help="with Redis: seconds an idle worker sleeps when no task rings",
        )

    def handle(self, *args, interval, idle, **options):
        priority_lower(settings.TASK_NICENESS)
        # Its "Starting worker" and "No more tasks" at every batch would fill the log.
        logging.getLogger("django_tasks_db").setLevel(logging.WARNING)
        worker = TaskWorker(
            queue_names=[DEFAULT_TASK_QUEUE_NAME],
            interval=0,
            batch=True,
            backend_name=DEFAULT_TASK_BACKEND_ALIAS,
            startup_delay=False,
            max_tasks=None,
            worker_id=get_random_string(32),
            excluded_queue_names=[],
        )
        worker.configure_signals()  # SIGTERM: the task running ends first
        task_finished.connect(_queue_again_if_the_database_failed_it)
        cut_short = None
        failures = 0
        beaten = 0.0
        while worker.running:
            try:
                if cut_short is not None:
                    task_retry(task_id=cut_short, worker_id=worker.worker_id)
                    cut_short = None
                worker.run()  # every task queued, then back here
                if time.monotonic() - beaten > HEARTBEAT_SECONDS:
                    worker_heartbeat(worker_id=worker.worker_id)
                    beaten = time.monotonic()
            except DatabaseError as error:
                cut_short = worker.running_task_id or cut_short
                worker.running_task_id = None
                # A broken connection is never used again: Django connects anew.
                connections.close_all()
                if failures == 0:
                    logger.warning(
                        "task worker %s: the database does not answer (%s: %s); trying again",
                        worker.worker_id,
                        type(error).__name__,
                        str(error).strip(),
                    )
                time.sleep(OUTAGE_WAITS[min(failures, len(OUTAGE_WAITS) - 1)])
                failures += 1
                continue
            if failures:
                logger.warning("task worker %s: the database answers again", worker.worker_id)
                failures = 0
            if worker.running:
                if settings.CACHE_URL:
                    tasks_doorbell_wait(seconds=idle)
                else:
                    time.sleep(interval)
