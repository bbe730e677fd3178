"""Failures in the player's words: our error pages, and 503 while the database is away."""

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse
from psycopg.errors import DeadlockDetected, SerializationFailure

from scorekeeper.views.errors import server_error
from tests.factories import make_game


@pytest.fixture
def database_away():
    """Make the database unreachable for real (SQLite: a file that cannot be opened;
    PostgreSQL: a port nobody listens on), and give it back afterwards."""
    settings = connection.settings_dict
    saved = dict(settings)

    def away():
        connection.close()
        if connection.vendor == "sqlite":
            settings["NAME"] = "/nonexistent-folder/scorekeeper.sqlite3"
        else:
            settings["HOST"], settings["PORT"] = "127.0.0.1", "1"

    def back():
        connection.close()
        settings.clear()
        settings.update(saved)

    yield away, back
    back()


@pytest.mark.django_db
def test_a_missing_table_has_our_own_404(client, game, member):
    response = client.get(reverse("game", args=[game.pk + 1000]))
    assert response.status_code == 404
    assert "There is nothing here" in response.content.decode()


@pytest.mark.django_db
def test_a_form_without_its_csrf_token_says_what_to_do(game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(game.created_by)
    response = client.post(reverse("may_i", args=[game.pk]), {"version": 0})
    assert response.status_code == 403
    assert "reload the page and try again" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 0


@pytest.mark.django_db(transaction=True)
def test_while_the_database_is_away_pages_say_back_in_a_moment_and_recover(database_away):
    game = make_game()
    client = Client(raise_request_exception=False)
    client.force_login(game.created_by)
    away, back = database_away

    away()
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 503
    assert "Back in a moment" in response.content.decode()
    assert response.headers["Retry-After"] == "10"
    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.json() == {"database": "unavailable"}

    back()
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
    assert client.get("/healthz").status_code == 200


def test_a_bug_is_a_500_page_of_our_own():
    # Anything but the database being away is a bug: a 500, not "back in a moment".
    try:
        raise ZeroDivisionError
    except ZeroDivisionError:
        response = server_error(None)
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()


@pytest.mark.parametrize("crossed", [DeadlockDetected, SerializationFailure])
def test_two_transactions_that_crossed_say_so_not_that_the_database_is_away(crossed):
    # Django wraps the driver's error in its OperationalError, as it raises it in a view.
    try:
        try:
            raise crossed("the database undid this transaction")
        except crossed as driver_error:
            raise OperationalError(str(driver_error)) from driver_error
    except OperationalError:
        response = server_error(None)
    assert response.status_code == 409
    assert "Two changes crossed" in response.content.decode()
    assert "Back in a moment" not in response.content.decode()
