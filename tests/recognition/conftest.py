import types

import pytest


@pytest.fixture
def settings():
    """The recognizer uses no Django: this stands in for pytest-django's ``settings``, which the
    root conftest's autouse fixture asks for, so these tests also run with ``-p no:django``."""
    return types.SimpleNamespace(STORAGES={})
