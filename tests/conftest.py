"""Fixtures for every test; the environment itself is set in tests/environment.py, loaded before
Django starts. Django-only fixtures live in tests/scorekeeper/conftest.py."""

import pytest


def pytest_collection_modifyitems(items):
    """Property tests (Hypothesis) and browser tests are slow by nature: `make test-fast` leaves
    them, and the modules marked `slow`, to `make test`."""
    for item in items:
        is_property = getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
        if is_property or "/browser/" in item.nodeid:
            item.add_marker(pytest.mark.slow)
