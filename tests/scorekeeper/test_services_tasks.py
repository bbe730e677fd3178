"""The task queue's upkeep (scorekeeper/services/tasks.py): lost tasks queued again, so are those
the database's going away cut short, a photo whose task failed given up within minutes, and what
nobody will collect deleted."""

import os
import time
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper import services
from scorekeeper.forms import photo_check
from scorekeeper.models import Photo, PhotoStatus
from scorekeeper.services.tasks import (
    DOORBELL,
    TASK_ATTEMPTS,
    photos_give_up,
    task_results_prune,
    task_retry,
    tasks_doorbell_ring,
    tasks_doorbell_wait,
    tasks_requeue_stale,
    uploads_drop_stale,
)
from scorekeeper.settings import cache_settings
from tests.factories import PHOTO, run_tasks
from tools.redis_server import RedisServer

pytestmark = pytest.mark.django_db


def photo_taken(game) -> Photo:
    upload = photo_check(SimpleUploadedFile("meld.jpg", PHOTO.read_bytes()))
    return services.photo_record(game=game, photo=upload, user=game.created_by)


def test_only_a_task_running_longer_than_any_task_takes_is_queued_again(game):
    photo_taken(game)
    task = DBTaskResult.objects.get()
    task.claim("a-worker-that-died")
    assert tasks_requeue_stale(older_than=timedelta(minutes=2)) == 0  # it may still be working
    DBTaskResult.objects.update(started_at=timezone.now() - timedelta(minutes=3))
    assert tasks_requeue_stale(older_than=timedelta(minutes=2)) == 1
    task.refresh_from_db()
    assert task.status == TaskResultStatus.READY and task.worker_ids == ["a-worker-that-died"]
    assert run_tasks() == 1
    assert Photo.objects.get().status == PhotoStatus.READ


def test_a_photo_never_read_is_given_up_and_its_file_deleted(game, media):
    photo = photo_taken(game)
    DBTaskResult.objects.all().delete()  # its task failed and was pruned: nobody will read it
    assert uploads_drop_stale() == 0  # not yet: a worker may come
    Photo.objects.update(created_at=timezone.now() - timedelta(hours=2))
    assert uploads_drop_stale() == 1
    photo.refresh_from_db()
    assert photo.status == PhotoStatus.UNREADABLE and "in time" in photo.problem
    assert not [path for path in media.rglob("*") if path.is_file()]


def test_a_standalone_upload_never_read_is_deleted(member, media):
    services.upload_keep(
        photo=photo_check(SimpleUploadedFile("m.jpg", PHOTO.read_bytes())), user=member
    )
    (upload,) = [path for path in media.rglob("*") if path.is_file()]
    assert uploads_drop_stale() == 0
    an_hour_ago = time.time() - 2 * 3600
    os.utime(upload, (an_hour_ago, an_hour_ago))
    assert uploads_drop_stale() == 1
    assert not upload.exists()


def test_finished_tasks_are_pruned_by_django_tasks_db_after_a_day(game):
    photo_taken(game)
    run_tasks()
    DBTaskResult.objects.update(finished_at=timezone.now() - timedelta(hours=23))
    uploads_drop_stale()
    task_results_prune()
    assert DBTaskResult.objects.count() == 1  # a page may still ask for it
    DBTaskResult.objects.update(finished_at=timezone.now() - timedelta(days=1, minutes=1))
    task_results_prune()
    assert not DBTaskResult.objects.exists()


def test_a_task_the_database_cut_short_is_queued_again_by_its_worker_only(game):
    photo_taken(game)
    task = DBTaskResult.objects.get()
    task.claim("cut-short")
    assert not task_retry(task_id=task.id, worker_id="another")  # not its task to give back
    assert task_retry(task_id=task.id, worker_id="cut-short")
    task.refresh_from_db()
    assert task.status == TaskResultStatus.READY and task.started_at is None
    assert run_tasks() == 1
    assert Photo.objects.get().status == PhotoStatus.READ
    assert not task_retry(task_id=task.id, worker_id=task.worker_ids[-1])  # it ended well


def test_a_task_that_failed_on_the_database_is_queued_again_at_most_so_many_times(game):
    photo_taken(game)
    task = DBTaskResult.objects.get()
    DBTaskResult.objects.update(
        status=TaskResultStatus.FAILED,
        worker_ids=[f"w{n}" for n in range(TASK_ATTEMPTS - 1)],
        exception_class_path="django.db.utils.OperationalError",
        finished_at=timezone.now(),
    )
    assert task_retry(task_id=task.id, worker_id=f"w{TASK_ATTEMPTS - 2}")
    task.refresh_from_db()
    assert task.status == TaskResultStatus.READY and not task.exception_class_path
    task.claim("the last")
    assert not task_retry(task_id=task.id, worker_id="the last")  # tried often enough
    assert DBTaskResult.objects.get().status == TaskResultStatus.RUNNING


@pytest.mark.parametrize("ended", [TaskResultStatus.FAILED, "pruned"])
def test_a_photo_whose_task_ended_unread_is_given_up_within_minutes(
    game, media, ended, django_capture_on_commit_callbacks
):
    photo = photo_taken(game)
    if ended == "pruned":
        DBTaskResult.objects.all().delete()
    else:
        DBTaskResult.objects.update(status=ended, finished_at=timezone.now())
    assert photos_give_up() == 0  # not yet: the photo is too new to tell
    Photo.objects.update(created_at=timezone.now() - timedelta(minutes=2))
    with django_capture_on_commit_callbacks(execute=True):
        assert photos_give_up() == 1
    photo.refresh_from_db()
    assert photo.status == PhotoStatus.UNREADABLE
    assert photo.problem == "That photo could not be read; please take it again."
    assert not [path for path in media.rglob("*") if path.is_file()]


@pytest.mark.parametrize("status", [TaskResultStatus.READY, TaskResultStatus.RUNNING])
def test_a_photo_whose_task_waits_or_runs_is_not_given_up(game, status):
    photo_taken(game)
    DBTaskResult.objects.update(status=status)
    Photo.objects.update(created_at=timezone.now() - timedelta(minutes=30))
    assert photos_give_up() == 0
    assert Photo.objects.get().status == PhotoStatus.READING


def test_without_redis_the_doorbell_rings_nothing_and_its_wait_is_a_sleep(settings):
    settings.CACHE_URL = ""
    tasks_doorbell_ring()
    started = time.monotonic()
    assert not tasks_doorbell_wait(seconds=0.05)
    assert time.monotonic() - started >= 0.05


@pytest.fixture
def shared_redis(settings):
    with RedisServer() as server:
        settings.CACHE_URL = server.url
        settings.CACHES = {"default": cache_settings(server.url)}
        yield server


@pytest.mark.redis_server
def test_a_queued_photo_rings_the_doorbell_once_committed_and_wakes_a_worker(
    game, shared_redis, django_capture_on_commit_callbacks
):
    started = time.monotonic()
    assert not tasks_doorbell_wait(seconds=0.2)  # nothing queued: it slept
    assert time.monotonic() - started >= 0.2
    with django_capture_on_commit_callbacks(execute=False) as committed:
        photo_taken(game)
    assert shared_redis.client().llen(DOORBELL) == 0  # not before the commit
    for callback in committed:
        callback()
    assert shared_redis.client().llen(DOORBELL) == 1
    started = time.monotonic()
    assert tasks_doorbell_wait(seconds=5)
    assert time.monotonic() - started < 0.5
    tasks_doorbell_ring(tasks=2)  # two tasks queued again: two workers woken
    assert tasks_doorbell_wait(seconds=5) and tasks_doorbell_wait(seconds=5)


@pytest.mark.redis_server
def test_a_redis_that_does_not_answer_only_delays_a_worker(shared_redis, caplog):
    shared_redis.stop()
    tasks_doorbell_ring()  # the task is queued all the same; the log says why no worker woke
    assert "task doorbell not rung: ConnectionError" in caplog.text
    started = time.monotonic()
    assert not tasks_doorbell_wait(seconds=0.3)
    assert time.monotonic() - started < 2
