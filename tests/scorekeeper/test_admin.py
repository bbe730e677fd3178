import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from scorekeeper.models import Event, TableLink
from scorekeeper.services import tv_link_create
from tests.factories import log_in_with_code, make_game, play_round, two_factor_turn_on

# slow: every admin page.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def staff(client):
    """A superuser logged in as the admin asks: the password, then the app's code."""
    user = get_user_model().objects.create_superuser("boss", password="a-long-test-password")
    key, _ = two_factor_turn_on(user)
    log_in_with_code(client, user, key)
    return user


def test_every_model_is_registered_and_its_pages_load(client, staff):
    game = make_game(players=3)
    play_round(game)
    models = [model for model in admin.site._registry if model._meta.app_label == "scorekeeper"]
    assert set(models) == set(apps.get_app_config("scorekeeper").get_models())
    for model in models:
        url = reverse(f"admin:scorekeeper_{model._meta.model_name}_changelist")
        assert client.get(url, {"q": "a"}).status_code == 200, model
        first = model.objects.first()
        if first is not None:
            change = reverse(f"admin:scorekeeper_{model._meta.model_name}_change", args=[first.pk])
            assert client.get(change).status_code == 200, model


def test_history_is_read_only_in_the_admin(client, staff):
    game = make_game(players=3)
    play_round(game)
    event = Event.objects.first()
    url = reverse("admin:scorekeeper_event_change", args=[event.pk])
    response = client.post(url, {"description": "rewritten"})
    assert response.status_code == 403
    event.refresh_from_db()
    assert event.description != "rewritten"
    assert client.get(reverse("admin:scorekeeper_event_add")).status_code == 403
    delete = reverse("admin:scorekeeper_event_delete", args=[event.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert Event.objects.filter(pk=event.pk).exists()


def test_a_tv_link_is_turned_off_in_the_admin_which_never_shows_its_address(client, staff):
    game = make_game(players=3)
    link = tv_link_create(game=game, user=game.created_by)
    change = client.get(reverse("admin:scorekeeper_tablelink_change", args=[link.pk]))
    assert change.status_code == 200
    assert link.token not in change.content.decode()
    listing = client.get(reverse("admin:scorekeeper_tablelink_changelist"))
    assert link.token not in listing.content.decode()
    client.post(reverse("admin:scorekeeper_tablelink_delete", args=[link.pk]), {"post": "yes"})
    assert not TableLink.objects.exists()
