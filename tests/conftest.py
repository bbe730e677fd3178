"""Fixtures for every test; the environment itself is set in tests/environment.py, loaded before
Django starts. Django-only fixtures live in tests/scorekeeper/conftest.py."""

import os
from itertools import islice

import pytest


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: three workers for two cores. A browser test spends much of its time waiting (its
    polls, its timers, a tap's answer), which a worker beside it fills; but four workers on two
    cores cost each test a third more CPU than two (measured on the two-core machine, 7 December:
    `make test` 272.7 s with four, 253.5 s with three, 262.9 s with two; docs/testing.md).
    Without the slow tests (`make test-fast`) no browser test waits: a worker a core (48.3 s and
    49.0 s with two, 52.9 s and 55.7 s with three)."""
    cores = os.process_cpu_count() or 1
    if "not slow" in (config.option.markexpr or ""):
        return cores
    return cores + cores // 2


def pytest_collection_modifyitems(config, items):
    """Property tests (Hypothesis) and browser tests are slow by nature: `make test-fast` leaves
    them, and the modules marked `slow`, to `make test`.

    Work stealing hands each worker a run of consecutive tests, and a worker that runs dry takes
    the second half of another's queue. So the slow tests are dealt out across the runs, each run
    starting with its share in the suite's order: every worker begins on long tests and ends on
    short ones, not one worker on all the long tests while the others wait at the end."""
    for item in items:
        is_property = getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
        if is_property or "/browser/" in item.nodeid:
            item.add_marker(pytest.mark.slow)
    slow = [item for item in items if item.get_closest_marker("slow")]
    fast = iter([item for item in items if not item.get_closest_marker("slow")])
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    ordered, left = [], len(items)
    for worker in range(workers):
        size = left // (workers - worker)  # as pytest-xdist's work stealing splits them
        share = slow[worker::workers]
        ordered += share + list(islice(fast, max(0, size - len(share))))
        left -= size
    items[:] = ordered + list(fast)
