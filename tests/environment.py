"""Loaded by pytest before Django starts (`-p tests.environment` in pyproject.toml).

Tests run with production settings, DEBUG off, so they need a real-looking secret key.
"""

import os

from recognizer.limits import READER_THREADS

os.environ.setdefault(
    "DJANGO_SECRET_KEY", "tests-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz"
)
# The live server for browser tests speaks plain HTTP on localhost.
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "false")
# Photos are read in the test process (the tasks run where they are queued), one thread a
# reader as a task worker reads them: OpenBLAS's spinning threads cost the suite's photo reads a
# third more CPU.
for name, value in READER_THREADS.items():
    os.environ.setdefault(name, value)
