"""Fixtures for every test; the environment itself is set in tests/environment.py, loaded before
Django starts. Django-only fixtures live in tests/scorekeeper/conftest.py."""

import os

import pytest


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: two workers a core. A browser test spends most of its time waiting for the
    page (its polls, its timers, a tap's answer), a core's worth of CPU shared by Chromium, the
    live server and the test; a second worker a core fills those waits."""
    return 2 * (os.process_cpu_count() or 1)


def pytest_collection_modifyitems(items):
    """Property tests (Hypothesis) and browser tests are slow by nature: `make test-fast` leaves
    them, and the modules marked `slow`, to `make test`. The slow tests run first, each module's
    in its order: the workers share out the long tests early and end on short ones (a worker
    that runs dry takes half of another's queue), not on one long test while the others wait."""
    for item in items:
        is_property = getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
        if is_property or "/browser/" in item.nodeid:
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
