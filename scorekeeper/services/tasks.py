"""The task queue's upkeep, done by the workers between tasks: a task whose worker vanished is
queued again for another, a recount whose task failed is queued again, and what nobody will
collect is deleted."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper.models import UNDER_WAY, ClubImport, ImportStatus, Photo, PhotoStatus, Recount

from .photos import STORE_ERRORS, _file_delete
from .ratings import recount_enqueue


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
    file of a club import no worker took, and the queue's records of finished tasks. Returns
    how many photos and uploads."""
    cutoff = timezone.now() - older_than
    ClubImport.objects.filter(status__in=UNDER_WAY, created_at__lt=cutoff).update(
        status=ImportStatus.REFUSED,
        problem="The file could not be imported in time, so nothing was imported. Try again.",
        document=b"",
        finished_at=timezone.now(),
    )
    stuck = Photo.objects.filter(status=PhotoStatus.READING, created_at__lt=cutoff)
    names = list(stuck.values_list("image", flat=True))
    dropped = stuck.update(
        status=PhotoStatus.UNREADABLE,
        problem="That photo could not be read in time; please take it again.",
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
    DBTaskResult.objects.filter(
        status__in=[TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED], finished_at__lt=cutoff
    ).delete()
    return dropped
