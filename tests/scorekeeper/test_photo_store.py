"""Photos in an S3-compatible bucket (DJANGO_STORAGE_URL): a real object store of its own, moto's
server started as a process (tools/object_store.py), reached through django-storages and boto3
as production reaches its bucket."""

import io

import pytest
from django.core.checks import run_checks
from django.core.exceptions import ImproperlyConfigured
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from scorekeeper import services
from scorekeeper.forms import photo_check
from scorekeeper.models import Club, Photo
from scorekeeper.services.backups import database_dump
from scorekeeper.settings import photo_storage
from tests.factories import (
    PHOTO,
    database_state,
    kept_photo,
    make_club,
    make_game,
    make_user,
    play_round,
    run_tasks,
    score_data,
    seats,
    text_of,
    url,
)
from tools.object_store import ObjectStore
from tools.pg_cluster import free_port

# slow: a real S3 server, as a process.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture(scope="module")
def store():
    with ObjectStore() as store:
        yield store


def use_store(settings, monkeypatch, storage_url: str, environment: dict) -> None:
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    settings.STORAGES = {**settings.STORAGES, "default": photo_storage(storage_url)}


@pytest.fixture
def bucket(store, settings, monkeypatch):
    """Photos go to the store's bucket, empty at the start of each test."""
    use_store(settings, monkeypatch, store.storage_url, store.environment())
    yield store
    client, left = store.client(), store.keys()
    for key in left:
        client.delete_object(Bucket=store.bucket, Key=key)


@pytest.fixture(params=["no server", "no such bucket"])
def store_away(request, store, settings, monkeypatch):
    """A store that does not answer, or a bucket that is not there."""
    if request.param == "no server":
        storage_url = store.storage_url.replace(str(store.port), str(free_port()))
    else:
        storage_url = store.storage_url.replace(store.bucket, "no-such-bucket")
    use_store(settings, monkeypatch, storage_url, store.environment())


def upload(client, game, content=None):
    photo = SimpleUploadedFile("meld.jpg", content or PHOTO.read_bytes(), content_type="image/jpeg")
    return client.post(url("table_photo", game), {"photo": photo})


def stored(store, key: str) -> bytes:
    return store.client().get_object(Bucket=store.bucket, Key=key)["Body"].read()


def test_a_photo_is_kept_in_the_bucket_privately_and_shown_to_members_only(
    client, member, game, bucket
):
    assert upload(client, game).status_code == 200
    uploaded = Photo.objects.get().image.name
    assert bucket.keys() == {uploaded}
    run_tasks()  # the worker keeps the photo read, upright, and drops the upload
    photo = Photo.objects.get()
    assert bucket.keys() == {photo.image.name} != {uploaded}
    grants = bucket.client().get_object_acl(Bucket=bucket.bucket, Key=photo.image.name)["Grants"]
    assert not [grant for grant in grants if grant["Grantee"].get("URI", "").endswith("AllUsers")]
    response = client.get(photo.get_absolute_url())
    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg"
    assert "private" in response["Cache-Control"]
    assert response.content == stored(bucket, photo.image.name)
    assert photo.size == len(response.content)
    stranger = make_user()
    make_club(stranger)
    client.force_login(stranger)
    assert client.get(photo.get_absolute_url()).status_code == 404


def test_two_photos_of_one_table_are_two_objects(game, bucket):
    clean = photo_check(SimpleUploadedFile("meld.jpg", PHOTO.read_bytes()))
    first = services.photo_record(game=game, photo=clean, user=game.created_by)
    second = services.photo_record(game=game, photo=clean, user=game.created_by)
    assert first.image.name != second.image.name
    assert bucket.keys() == {first.image.name, second.image.name}


def test_deleting_a_photo_deletes_its_object_once_committed(
    client, member, game, bucket, django_capture_on_commit_callbacks
):
    photo = kept_photo(game)
    assert bucket.keys() == {photo.image.name}
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.photo_delete(photo=photo, user=game.created_by)
    assert bucket.keys() == {photo.image.name}  # not before the deletion is committed
    for callback in callbacks:
        callback()
    assert bucket.keys() == set()


def test_deleting_a_table_or_a_club_deletes_their_objects(
    game, stranger, bucket, django_capture_on_commit_callbacks
):
    kept_photo(game)
    kept_photo(game)
    other = kept_photo(stranger)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_delete(game=game, user=game.created_by)
    assert bucket.keys() == {other.image.name}
    with django_capture_on_commit_callbacks(execute=True):
        services.club_delete(
            club=stranger.club, user=stranger.created_by, confirm_name=stranger.club.name
        )
    assert bucket.keys() == set()


def test_a_photo_refused_once_stored_leaves_no_object(game, bucket):
    for _ in range(7):
        play_round(game)
    clean = photo_check(SimpleUploadedFile("meld.jpg", PHOTO.read_bytes()))
    with pytest.raises(services.ActionRefused, match="game is over"):
        services.photo_record(game=game, photo=clean, user=game.created_by)
    assert not Photo.objects.exists()
    assert bucket.keys() == set()


def test_the_quota_counts_the_bytes_the_bucket_holds(client, member, game, bucket, settings):
    upload(client, game)
    run_tasks()
    photo = Photo.objects.get()
    head = bucket.client().head_object(Bucket=bucket.bucket, Key=photo.image.name)
    assert photo.size == head["ContentLength"]
    settings.PHOTO_QUOTA_BYTES = head["ContentLength"] + 1
    assert "This club's photos are full" in text_of(upload(client, game))
    assert Photo.objects.count() == 1
    assert bucket.keys() == {photo.image.name}


@pytest.mark.django_db(transaction=True)
def test_a_backup_carries_the_photos_out_of_the_bucket_and_back_into_it(bucket, tmp_path):
    game = make_game(players=3)
    photo = kept_photo(game, content=PHOTO.read_bytes())
    rows = database_dump()
    path = tmp_path / "backup.tar.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    call_command("flush", interactive=False, verbosity=0)
    bucket.client().delete_object(Bucket=bucket.bucket, Key=photo.image.name)
    assert bucket.keys() == set() and not Club.objects.exists()

    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    assert "1 photo(s)" in out.getvalue()
    assert database_dump() == rows
    assert bucket.keys() == {photo.image.name}
    assert stored(bucket, photo.image.name) == PHOTO.read_bytes()


def test_with_the_store_away_a_photo_is_refused_in_words_and_nothing_is_kept(
    client, member, game, store_away
):
    before = database_state()
    response = upload(client, game)
    assert response.status_code == 200
    assert "the photo store does not answer" in text_of(response)
    assert database_state() == before
    # Everything that needs no photo works.
    assert client.get(game.get_absolute_url()).status_code == 200


@pytest.mark.players(4)
def test_with_the_store_away_score_entry_keeps_what_was_typed(client, member, scoring, store_away):
    seat = seats(scoring)[1]
    file = SimpleUploadedFile("hand.jpg", PHOTO.read_bytes(), content_type="image/jpeg")
    data = {**score_data(scoring), "photo_seat": seat.pk, f"photo_{seat.pk}": file}
    response = client.post(url("score_photo", scoring), data)
    assert response.status_code == 200
    body = text_of(response)
    assert "the photo store does not answer" in body
    assert "7 8" in body  # the hand typed before the photo is still there
    assert not Photo.objects.exists()


def test_with_the_store_away_a_photo_page_is_a_clear_503(client, member, game, store_away):
    photo = Photo.objects.create(
        game=game, round=game.rounds.get(), width=1, height=1, image="photos/away.jpg"
    )
    response = client.get(photo.get_absolute_url())
    assert response.status_code == 503
    assert "Photos unavailable just now" in text_of(response)
    # The table's list of photos reads only rows: it still works.
    assert client.get(url("table_photos", game)).status_code == 200


def test_a_photo_whose_object_is_gone_is_a_404(client, member, game, bucket):
    photo = kept_photo(game)
    bucket.client().delete_object(Bucket=bucket.bucket, Key=photo.image.name)
    assert client.get(photo.get_absolute_url()).status_code == 404


def test_check_says_when_the_bucket_cannot_be_used(store_away):
    errors = [message for message in run_checks() if message.id == "scorekeeper.E001"]
    assert len(errors) == 1
    assert "photo store cannot be used" in errors[0].msg


def test_check_is_quiet_when_the_bucket_answers(bucket):
    assert not [message for message in run_checks() if message.id == "scorekeeper.E001"]


def test_check_is_quiet_with_photos_on_disk():
    assert not [message for message in run_checks() if message.id == "scorekeeper.E001"]


@pytest.mark.parametrize(
    ("storage_url", "reason"),
    [
        ("https://bucket.example.org", "must be s3://BUCKET"),
        ("s3://", "must be s3://BUCKET"),
        ("s3://key:secret@bucket", "must not hold credentials"),
        ("s3://bucket?endpoint=http://x", "unknown option 'endpoint'"),
    ],
)
def test_a_wrong_storage_url_is_refused_at_start(storage_url, reason):
    with pytest.raises(ImproperlyConfigured, match=reason):
        photo_storage(storage_url)


def test_a_storage_url_names_bucket_prefix_and_endpoint():
    storage = photo_storage(
        "s3://club-photos/night/one?endpoint_url=https://s3.example.org&region_name=eu-west-1"
    )
    assert storage["BACKEND"] == "storages.backends.s3.S3Storage"
    options = storage["OPTIONS"]
    assert options["bucket_name"] == "club-photos"
    assert options["location"] == "night/one"
    assert options["endpoint_url"] == "https://s3.example.org"
    assert options["region_name"] == "eu-west-1"
    assert options["default_acl"] is None and options["file_overwrite"] is False
    assert photo_storage("") == {"BACKEND": "django.core.files.storage.FileSystemStorage"}
