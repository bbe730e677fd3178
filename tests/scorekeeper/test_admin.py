import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.models import (
    Event,
    Game,
    Hand,
    Membership,
    OwnerAction,
    PointsLeft,
    Result,
    Rivalry,
    Role,
    Round,
    Seat,
    TableLink,
    TableMeld,
)
from scorekeeper.services import tv_link_create
from tests.factories import (
    finish_game,
    log_in_with_code,
    make_game,
    play_round,
    record_check,
    stray_photo,
    two_factor_turn_on,
)

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


def test_each_list_runs_as_many_queries_for_two_clubs_as_for_one(client, staff):
    """Each list joins what its rows show (Django joins the foreign keys `list_display` names):
    no query a row."""

    def club_with_tables():
        game = make_game(players=3)
        record_check(game, game.rounds.get())
        stray_photo(game)
        tv_link_create(game=finish_game(game), user=game.created_by)
        play_round(make_game(game.club, players=3))

    def queries_of_each_list():
        counts = {}
        for model in admin.site._registry:
            url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200, model
            counts[model] = len(queries)
        return counts

    club_with_tables()
    one = queries_of_each_list()
    club_with_tables()
    assert queries_of_each_list() == one


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


# What happened at a table, and who runs each club: changed only through the services, which bump
# the table's version (the screens follow), refresh the results, write the history and keep each
# club an owner. The admin shows them.
KEPT = [
    Game,
    Seat,
    Round,
    Hand,
    TableMeld,
    Event,
    Membership,
    Result,
    Rivalry,
    PointsLeft,
    OwnerAction,
]


def test_no_admin_adds_changes_or_deletes_what_happened_at_a_table_or_who_runs_a_club(rf, staff):
    request = rf.get("/")
    request.user = staff
    for model in KEPT:
        model_admin = admin.site.get_model_admin(model)
        assert model_admin.has_view_permission(request), model
        assert not model_admin.has_add_permission(request), model
        assert not model_admin.has_change_permission(request), model
        assert not model_admin.has_delete_permission(request), model
    # Our models' admins (django-otp's device admin has its own inline of recovery codes).
    inlines = [
        inline(model, admin.site)
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label == "scorekeeper"
        for inline in model_admin.inlines
    ]
    assert {inline.model for inline in inlines} <= set(KEPT)
    for inline in inlines:
        assert not inline.has_add_permission(request, None), inline
        assert not inline.has_change_permission(request), inline
        assert not inline.has_delete_permission(request), inline


def test_a_superuser_cannot_rewrite_a_table_in_the_admin(client, staff):
    game = make_game(players=3)
    play_round(game, points=[10, 20])
    hand = Hand.objects.filter(points=20).get()
    change = reverse("admin:scorekeeper_hand_change", args=[hand.pk])
    assert client.get(change).status_code == 200  # shown, read-only
    assert client.post(change, {"points": "0", "cards": ""}).status_code == 403
    delete = reverse("admin:scorekeeper_round_delete", args=[hand.round_id])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    game_delete = reverse("admin:scorekeeper_game_delete", args=[game.pk])
    assert client.post(game_delete, {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:scorekeeper_seat_add")).status_code == 403
    hand.refresh_from_db()
    assert hand.points == 20
    assert Game.objects.filter(pk=game.pk).exists()
    page = client.get(reverse("admin:scorekeeper_game_change", args=[game.pk])).content.decode()
    assert 'name="seats-0-player"' not in page


def test_a_superuser_cannot_leave_a_club_without_its_owner_in_the_admin(client, staff):
    game = make_game(players=3)
    owner = game.created_by
    page = client.get(reverse("admin:scorekeeper_club_change", args=[game.club_id]))
    assert 'name="memberships-0-role"' not in page.content.decode()
    membership = Membership.objects.get(user=owner)
    change = reverse("admin:scorekeeper_membership_change", args=[membership.pk])
    assert client.post(change, {"role": Role.VIEWER}).status_code == 403
    # Deleting the account would delete its memberships: that is the account's own to do.
    delete = reverse("admin:auth_user_delete", args=[owner.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert game.club.owner() == owner
