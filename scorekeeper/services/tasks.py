"""The task queue's upkeep, done by the workers between tasks: a task whose worker vanished is
queued again for another, so is one the database's going away cut short, a recount whose task
failed is queued again, a photo whose task failed is given up, and what nobody will collect is
deleted. With Redis (DJANGO_CACHE_URL), a queued task rings a doorbell that wakes an idle
worker, which otherwise sleeps; each worker says in the shared cache when it last looked."""

import functools
import logging
import time
from datetime import timedelta

import redis
from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.db import DatabaseError, transaction
from django.tasks import DEFAULT_TASK_BACKEND_ALIAS, TaskResult, TaskResultStatus, task_backends
from django.utils import timezone
from django.utils.translation import gettext_noop
from django_tasks_db.backend import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from scorekeeper.models import UNDER_WAY, ClubImport, ImportStatus, Photo, PhotoStatus, Recount
from scorekeeper.selectors.tasks import HEARTBEAT

from .photos import STORE_ERRORS, _file_delete, photo_read
from .ratings import recount_enqueue

logger = logging.getLogger(__name__)

# A Redis list, one item a queued task (at most DOORBELL_LENGTH): BLPOP wakes one idle worker
# an item. The queue itself stays in the database, written in the transaction of what it is
# for (a photo's row and its task, both or neither); the doorbell only says "look now".
DOORBELL = "tasks:doorbell"
DOORBELL_LENGTH = 1000
# What a task raises when the database went away under it: not the task's fault, so it is
# queued again (at most TASK_ATTEMPTS runs in all) rather than failed.
DATABASE_GONE = {"django.db.utils.OperationalError", "django.db.utils.InterfaceError"}
TASK_ATTEMPTS = 5


@transaction.atomic
def tasks_requeue_stale(*, older_than: timedelta | None = None) -> int:
    """Queue again every task that has been running longer than any task takes (its worker was
    killed, or its machine went away): another worker takes it. The tasks are written so that a
    second run does nothing the first one finished. Returns how many."""
    older_than = older_than or timedelta(seconds=settings.TASK_STALE_SECONDS)
    return DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING, started_at__lt=timezone.now() - older_than
    ).update(status=TaskResultStatus.READY, started_at=None)


@transaction.atomic
def recounts_queue_again() -> int:
    """Queue again every recount whose task is no longer queued or running (it failed: the
    database went away, say), so that no club's standings stay "being recounted". Returns how
    many."""
    queued = DBTaskResult.objects.filter(
        status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING]
    )
    again = 0
    # One recount a club waits at most: few enough to look up one by one.
    for recount in Recount.objects.select_for_update():
        if recount.task_id and queued.filter(id=recount.task_id).exists():
            continue
        recount_enqueue(recount)
        again += 1
    return again


def uploads_drop_stale(*, older_than: timedelta = timedelta(hours=1)) -> int:
    """Delete what nobody will collect: a standalone checker's upload its task never read, a
    table's photo still unread long after any worker would have read it (its task failed), the
    file of a club import no worker took (finished tasks' records: `task_results_prune`).
    Returns how many photos and uploads."""
    cutoff = timezone.now() - older_than
    ClubImport.objects.filter(status__in=UNDER_WAY, created_at__lt=cutoff).update(
        status=ImportStatus.REFUSED,
        problem=gettext_noop(
            "The file could not be imported in time, so nothing was imported. Try again."
        ),
        document=b"",
        finished_at=timezone.now(),
    )
    stuck = Photo.objects.filter(status=PhotoStatus.READING, created_at__lt=cutoff)
    names = list(stuck.values_list("image", flat=True))
    dropped = stuck.update(
        status=PhotoStatus.UNREADABLE,
        problem=gettext_noop("That photo could not be read in time; please take it again."),
        image="",
        size=0,
    )
    storage = Photo._meta.get_field("image").storage
    try:
        _, files = storage.listdir("uploads")
        for name in files:
            if storage.get_modified_time(f"uploads/{name}") < cutoff:
                names.append(f"uploads/{name}")
                dropped += 1
    except FileNotFoundError:
        pass  # on disk, before the first upload
    except STORE_ERRORS:
        return dropped  # tried again at the next upkeep
    for name in names:
        _file_delete(name)
    return dropped


# Finished tasks' records are kept this long: a page that waits for one (the checker's photo, a
# club import) has it long before. django-tasks-db's pruning counts in days.
TASK_RESULTS_KEPT_DAYS = 1


def task_results_prune() -> None:
    """Delete the records of tasks finished (done or failed) over TASK_RESULTS_KEPT_DAYS ago,
    through django-tasks-db's own pruning; nothing without its queue (the immediate backend)."""
    if isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend):
        call_command(
            "prune_db_task_results",
            queue_name="*",
            min_age_days=TASK_RESULTS_KEPT_DAYS,
            verbosity=0,
        )


@functools.cache
def _redis(url: str, timeout: float) -> redis.Redis:
    # One client (and its connections) a process; an unreachable Redis answers within a second.
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=timeout)


def tasks_doorbell_ring(*, tasks: int = 1) -> None:
    """Wake an idle worker for each of `tasks` queued. Nothing without Redis (the workers look every
    fiftieth of a second); a Redis that does not answer is said in the log, and the task waits
    for a worker's next look (DJANGO_TASK_IDLE_SECONDS at most)."""
    if not settings.CACHE_URL:
        return
    try:
        with _redis(settings.CACHE_URL, 1).pipeline() as ring:
            ring.lpush(DOORBELL, *[1] * min(tasks, DOORBELL_LENGTH))
            ring.ltrim(DOORBELL, 0, DOORBELL_LENGTH - 1).expire(DOORBELL, 3600).execute()
    except redis.RedisError as error:
        logger.warning("task doorbell not rung: %s: %s", type(error).__name__, error)


def task_enqueued_ring(sender, task_result: TaskResult, **kwargs) -> None:
    """django.tasks' task_enqueued: ring the doorbell once the task's transaction commits (a
    worker woken before would not see it), for the database's queue with Redis only."""
    if settings.CACHE_URL and issubclass(sender, DatabaseBackend):
        transaction.on_commit(tasks_doorbell_ring)


def tasks_doorbell_wait(*, seconds: float) -> bool:
    """Sleep until the doorbell rings or `seconds` have passed (just sleep without Redis, or
    a second while Redis does not answer). Returns whether it rang."""
    if not settings.CACHE_URL:
        time.sleep(seconds)
        return False
    try:
        rang = _redis(settings.CACHE_URL, seconds + 5).blpop([DOORBELL], timeout=seconds)
    except redis.RedisError as error:
        logger.warning("task doorbell not heard: %s: %s", type(error).__name__, error)
        time.sleep(min(seconds, 1))
        return False
    return rang is not None


def worker_heartbeat(*, worker_id: str) -> None:
    """Say in the shared cache that a worker is alive and looking for tasks (the health check
    reads it); a cache that cannot keep it is said in the log, and the worker works on."""
    try:
        cache.set(HEARTBEAT, timezone.now().isoformat(), timeout=24 * 3600)
    except (redis.RedisError, DatabaseError) as error:
        logger.warning(
            "worker %s heartbeat not kept: %s: %s", worker_id, type(error).__name__, error
        )


@transaction.atomic
def task_retry(*, task_id: str, worker_id: str) -> bool:
    """Queue again a task the database's going away cut short in `worker_id` (which could not
    write how it ended, or wrote that it failed on the database), unless another worker has
    taken it since or it has run TASK_ATTEMPTS times. The tasks are written so that a second
    run does nothing the first one finished. Returns whether it was queued again."""
    task = (
        DBTaskResult.objects.select_for_update()
        .filter(id=task_id, status__in=[TaskResultStatus.RUNNING, TaskResultStatus.FAILED])
        .first()
    )
    if task is None or task.worker_ids[-1:] != [worker_id] or len(task.worker_ids) >= TASK_ATTEMPTS:
        return False
    DBTaskResult.objects.filter(id=task_id).update(
        status=TaskResultStatus.READY,
        started_at=None,
        finished_at=None,
        exception_class_path="",
        traceback="",
    )
    return True


@transaction.atomic
def photos_give_up(*, older_than: timedelta = timedelta(minutes=1)) -> int:
    """Give up, saying why, every photo still "being read" whose task is over (it failed) or
    gone: the player takes it again within a minute or two, rather than waiting for nothing.
    A photo whose task waits or runs is left (a running task whose worker vanished is queued
    again by `tasks_requeue_stale`). Returns how many."""
    stuck = Photo.objects.select_for_update().filter(
        status=PhotoStatus.READING, created_at__lt=timezone.now() - older_than
    )
    names = dict(stuck.values_list("pk", "image"))
    if not names:
        return 0
    queued = DBTaskResult.objects.filter(
        status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING],
        task_path=photo_read.module_path,
    ).values_list("args_kwargs", flat=True)
    for arguments in queued:
        names.pop(arguments["args"][0], None)
    dropped = stuck.filter(pk__in=names).update(
        status=PhotoStatus.UNREADABLE,
        problem=gettext_noop("That photo could not be read; please take it again."),
        image="",
        size=0,
    )
    transaction.on_commit(lambda: [_file_delete(name) for name in names.values()])
    return dropped
