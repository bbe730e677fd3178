import os

import pytest

# Tests run with production settings (DEBUG off), so they need a real-looking key.
os.environ.setdefault(
    "DJANGO_SECRET_KEY", "tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
)


@pytest.fixture(autouse=True)
def plain_static_files(settings):
    """Templates resolve static files without a collectstatic manifest (one test builds it)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
