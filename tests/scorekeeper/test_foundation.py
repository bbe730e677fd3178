import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_user

# slow: settings read by fresh interpreters, static files collected.
pytestmark = pytest.mark.slow

BASE_DIR = Path(__file__).resolve().parents[2]


def run_settings(env: dict) -> subprocess.CompletedProcess:
    """Import the settings in a fresh interpreter with exactly this environment."""
    return subprocess.run(
        [sys.executable, "-c", "import scorekeeper.settings as s; print(s.DEBUG)"],
        cwd=BASE_DIR,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize(
    "key", ["", "---", "django-insecure-abc", "short-but-random-Xq7", "ab" * 40]
)
def test_production_refuses_a_missing_placeholder_or_weak_secret(key):
    result = run_settings({"DJANGO_SECRET_KEY": key})
    assert result.returncode != 0
    assert "Set DJANGO_SECRET_KEY" in result.stderr


def test_production_starts_with_a_real_secret():
    result = run_settings({"DJANGO_SECRET_KEY": "x7Yq-" * 12})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_the_wsgi_worker_keeps_what_it_loaded_out_of_the_collectors_way():
    loaded = subprocess.run(
        [sys.executable, "-c", "import gc, scorekeeper.wsgi; print(gc.get_freeze_count())"],
        cwd=BASE_DIR,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SECRET_KEY": "x7Yq-" * 12},
        capture_output=True,
        text=True,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert int(loaded.stdout) > 10_000  # Django and the app, not a handful of objects


def test_debug_on_a_laptop_needs_no_secret():
    result = run_settings({"DJANGO_DEBUG": "true"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_a_bad_boolean_is_refused():
    result = run_settings({"DJANGO_DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DJANGO_DEBUG must be true or false" in result.stderr


@pytest.mark.django_db
def test_base_page_uses_vendored_htmx_and_no_external_url(client):
    client.force_login(make_user())
    response = client.get(reverse("home"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "/static/vendor/htmx/htmx.min.js" in html
    assert "hx-headers" in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert "<script>" not in html  # no inline scripts: the CSP forbids them
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy


@pytest.mark.django_db
def test_whitenoise_serves_hashed_static_files_with_a_long_cache_life(collected_static):
    hashed = next(collected_static.glob("vendor/htmx/htmx.min.*.js"))
    assert (collected_static / "vendor/htmx" / (hashed.name + ".gz")).exists()
    response = Client().get(
        f"/static/vendor/htmx/{hashed.name}", headers={"accept-encoding": "gzip"}
    )
    assert response.status_code == 200
    assert "max-age=315360000" in response["Cache-Control"]
    assert response["Content-Encoding"] == "gzip"


@pytest.mark.django_db
def test_the_content_security_policy_holds_with_debug_on_too(client, settings):
    settings.DEBUG = True
    response = client.get(reverse("login"))
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


@pytest.mark.parametrize("megapixels", ["51", "0", "-5"])
def test_a_photo_limit_the_recognizer_cannot_read_refuses_to_start(megapixels):
    result = run_settings({"DJANGO_DEBUG": "true", "DJANGO_PHOTO_MAX_MEGAPIXELS": megapixels})
    assert result.returncode != 0
    assert "DJANGO_PHOTO_MAX_MEGAPIXELS must be from 1 to 50" in result.stderr


def test_a_task_niceness_beyond_what_nice_allows_refuses_to_start():
    result = run_settings({"DJANGO_DEBUG": "true", "DJANGO_TASK_NICENESS": "20"})
    assert result.returncode != 0
    assert "DJANGO_TASK_NICENESS must be from 0 to 19, not 20" in result.stderr


def test_the_photo_quota_comes_from_the_environment():
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import scorekeeper.settings as s; print(s.PHOTO_QUOTA_COUNT, s.PHOTO_QUOTA_BYTES)",
        ],
        cwd=BASE_DIR,
        env={
            "PATH": "/usr/bin:/bin",
            "DJANGO_DEBUG": "true",
            "DJANGO_PHOTO_QUOTA_COUNT": "40",
            "DJANGO_PHOTO_QUOTA_MB": "3",
        },
        capture_output=True,
        text=True,
    )
    assert result.stdout.split() == ["40", str(3 * 1024 * 1024)], result.stderr


@pytest.mark.parametrize("variable", ["DJANGO_PHOTO_QUOTA_COUNT", "DJANGO_PHOTO_QUOTA_MB"])
def test_a_negative_photo_quota_refuses_to_start(variable):
    result = run_settings({"DJANGO_DEBUG": "true", variable: "-1"})
    assert result.returncode != 0
    assert "must be 0 (no photos) or more" in result.stderr


def test_the_static_root_comes_from_the_environment(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", "import scorekeeper.settings as s; print(s.STATIC_ROOT)"],
        cwd=BASE_DIR,
        env={"PATH": "/usr/bin:/bin", "DJANGO_DEBUG": "true", "DJANGO_STATIC_ROOT": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert result.stdout.strip() == str(tmp_path), result.stderr


def cache_from(env: dict) -> subprocess.CompletedProcess:
    """The cache's backend and whether polls are answered from it, under this environment."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import scorekeeper.settings as s; "
            "print(s.CACHES['default']['BACKEND'], s.POLLS_FROM_CACHE)",
        ],
        cwd=BASE_DIR,
        env={"PATH": "/usr/bin:/bin", "DJANGO_DEBUG": "true", **env},
        capture_output=True,
        text=True,
    )


def test_the_cache_is_the_database_table_unless_a_redis_is_named():
    plain = cache_from({})
    assert plain.stdout.split() == ["django.core.cache.backends.db.DatabaseCache", "False"]
    redis = cache_from({"DJANGO_CACHE_URL": "redis://127.0.0.1:6379/0"})
    assert redis.stdout.split() == ["django.core.cache.backends.redis.RedisCache", "True"]


@pytest.mark.parametrize("address", ["memcached://127.0.0.1:11211", "redis://", "127.0.0.1:6379"])
def test_a_cache_address_that_is_no_redis_refuses_to_start(address):
    result = cache_from({"DJANGO_CACHE_URL": address})
    assert result.returncode != 0
    assert "DJANGO_CACHE_URL must be redis://HOST:PORT/DB" in result.stderr
