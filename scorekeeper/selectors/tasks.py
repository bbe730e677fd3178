"""How the task queue fares, for the deeper health check: the oldest task waiting for a worker,
the oldest photo waiting to be read, and when a worker last said it was alive."""

from datetime import datetime, timedelta

from django.core.cache import cache
from django.db.models import Min, Q
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper.models import Photo, PhotoStatus

# Where each worker writes when it last looked for tasks: the cache every instance shares (the
# database's cache table, or Redis), so any instance's health check sees every instance's workers.
HEARTBEAT = "tasks:heartbeat"
# A photo is read in about a second; one waiting longer than this has no worker to read it.
PHOTO_WAIT_LIMIT = timedelta(minutes=1)
# The standalone checker's task (services.photos.upload_read), whose photo has no row of its own.
UPLOAD_READ = "scorekeeper.services.photos.upload_read"


def _age(now: datetime, since: datetime | None) -> float | None:
    return None if since is None else round((now - since).total_seconds(), 1)


def tasks_health() -> dict:
    """The queue's state in two queries and a cache read: "ok", or "degraded" when a photo has
    waited longer than PHOTO_WAIT_LIMIT; the ages are seconds, None when nothing waits (or no
    worker ever beat)."""
    now = timezone.now()
    waiting = DBTaskResult.objects.filter(
        status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING]
    ).aggregate(
        task=Min("enqueued_at", filter=Q(status=TaskResultStatus.READY)),
        upload=Min("enqueued_at", filter=Q(task_path=UPLOAD_READ)),
    )
    photo = Photo.objects.filter(status=PhotoStatus.READING).aggregate(since=Min("created_at"))
    photo_ages = [
        age for age in (_age(now, photo["since"]), _age(now, waiting["upload"])) if age is not None
    ]
    photo_age = max(photo_ages, default=None)
    beat = cache.get(HEARTBEAT)
    beat_at = datetime.fromisoformat(beat) if beat else None
    degraded = photo_age is not None and photo_age > PHOTO_WAIT_LIMIT.total_seconds()
    return {
        "database": "ok",
        "tasks": "degraded" if degraded else "ok",
        "oldest_waiting_task_seconds": _age(now, waiting["task"]),
        "oldest_waiting_photo_seconds": photo_age,
        "last_worker_heartbeat": beat,
        "last_worker_heartbeat_seconds": _age(now, beat_at),
    }
