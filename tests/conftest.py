"""Fixtures for every test; the environment itself is set in tests/environment.py, loaded before
Django starts. Django-only fixtures live in tests/scorekeeper/conftest.py."""
