"""Loaded by pytest before Django starts (`-p tests.environment` in pyproject.toml).

Tests run with production settings, DEBUG off, so they need a real-looking secret key.
"""

import os

os.environ.setdefault(
    "DJANGO_SECRET_KEY", "tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
)
# The live server for browser tests speaks plain HTTP on localhost.
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "false")
