"""The task queue's upkeep (scorekeeper/services/tasks.py): lost tasks queued again, and what
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
from scorekeeper.services.tasks import tasks_requeue_stale, uploads_drop_stale
from tests.factories import PHOTO, run_tasks

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


def test_finished_tasks_are_forgotten_after_an_hour(game):
    photo_taken(game)
    run_tasks()
    uploads_drop_stale()
    assert DBTaskResult.objects.count() == 1  # a page may still ask for it
    DBTaskResult.objects.update(finished_at=timezone.now() - timedelta(hours=2))
    uploads_drop_stale()
    assert not DBTaskResult.objects.exists()
