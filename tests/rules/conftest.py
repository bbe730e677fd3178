"""The rules engine is pure Python: its tests need no Django.

The project-wide conftest asks pytest-django for settings on every test; this closer fixture of
the same name replaces it here so `pytest tests/rules -p no:django` runs.
"""

import pytest


@pytest.fixture(autouse=True)
def plain_static_files():
    """Nothing to set up: the rules engine serves no static files."""
    return None
