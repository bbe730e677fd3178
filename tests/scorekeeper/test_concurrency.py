"""Two tablets at one table: writes based on the same screen race, exactly one of them lands.

Runs on whichever database the suite runs on; CI runs it on SQLite and on PostgreSQL, where the
two requests really overlap in two connections.
"""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Event, Hand, Membership, Role, Round
from tests.factories import make_game, make_user

PASSWORD = "a-long-test-password"  # make_user's

# slow: threads racing on committed data.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def race(requests):
    """Send the requests from separate threads (separate connections) at the same moment."""
    barrier = threading.Barrier(len(requests))
    responses = [None] * len(requests)

    def send(index, request):
        try:
            barrier.wait()
            responses[index] = request()
        except Exception as error:  # noqa: BLE001 - handed to the test thread below
            responses[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=item) for item in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for response in responses:
        if isinstance(response, Exception):
            raise response
    return responses


def logged_in_client(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("attempt", range(3))
def test_two_tablets_spending_may_i_on_one_screen(attempt):
    game = make_game(players=3)
    user = game.club.memberships.get().user
    seats = list(game.seats.order_by("position"))
    url = reverse("may_i", args=[game.pk])
    tablets = [logged_in_client(user), logged_in_client(user)]
    responses = race(
        [
            lambda tablet=tablet, seat=seat: tablet.post(
                url, {"version": game.version, "seat": seat.pk}, headers={"HX-Request": "true"}
            )
            for tablet, seat in zip(tablets, seats[:2], strict=True)
        ]
    )
    assert sorted(response.status_code for response in responses) == [200, 409]
    assert sum(Hand.objects.values_list("may_i_used", flat=True)) == 1
    assert Event.objects.filter(kind=Event.Kind.MAY_I).count() == 1


def test_two_tablets_saving_the_same_round_never_deal_twice():
    game = make_game(players=3)
    user = game.club.memberships.get().user
    seats = list(game.seats.order_by("position"))
    tablet = logged_in_client(user)
    tablet.post(reverse("went_out", args=[game.pk]), {"version": game.version, "seat": seats[0].pk})
    game.refresh_from_db()
    data = {"version": game.version, f"points_{seats[1].pk}": "10", f"points_{seats[2].pk}": "20"}
    other = {**data, f"points_{seats[1].pk}": "95"}
    url = reverse("score", args=[game.pk])
    responses = race(
        [
            lambda: logged_in_client(user).post(url, data, headers={"HX-Request": "true"}),
            lambda: logged_in_client(user).post(url, other, headers={"HX-Request": "true"}),
        ]
    )
    assert sorted(response.status_code for response in responses) == [200, 409]
    assert Round.objects.filter(game=game).count() == 2
    saved = Hand.objects.get(round__number=1, seat=seats[1]).points
    assert saved in (10, 95)
    assert Event.objects.filter(kind=Event.Kind.ROUND_SCORED).count() == 1


def test_six_sign_ups_with_one_name_at_once_make_one_account_and_tell_the_rest():
    data = {"username": "samename", "password1": "Tab1e-talk!", "password2": "Tab1e-talk!"}
    responses = race(
        [
            lambda n=n: Client().post(reverse("signup"), data, REMOTE_ADDR=f"10.3.0.{n}")
            for n in range(6)
        ]
    )
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200] * 5 + [302], statuses
    assert get_user_model().objects.filter(username="samename").count() == 1
    for response in responses:
        if response.status_code == 200:
            body = response.content.decode()
            assert "taken a moment ago" in body or "already exists" in body


def test_two_owners_demoting_each_other_at_once_leave_the_club_one_owner():
    game = make_game(players=3)
    club, ann = game.club, game.created_by
    ben = make_user()
    Membership.objects.create(club=club, user=ben, role=Role.OWNER)
    memberships = {m.user_id: m.pk for m in Membership.objects.filter(club=club)}

    def demote(who, whom):
        url = reverse("member_role", args=[memberships[whom.pk]])
        return lambda: logged_in_client(who).post(url, {"role": Role.VIEWER})

    responses = race([demote(ann, ben), demote(ben, ann)])
    assert all(response.status_code < 500 for response in responses), responses
    owners = Membership.objects.filter(club=club, role=Role.OWNER)
    assert owners.count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_two_co_owners_deleting_their_accounts_at_once_leave_the_club_an_owner(attempt):
    game = make_game(players=3)
    club, ann = game.club, game.created_by
    ben = make_user()
    Membership.objects.create(club=club, user=ben, role=Role.OWNER)
    url = reverse("account_delete")
    responses = race(
        [
            lambda who=who: logged_in_client(who).post(url, {"password": PASSWORD})
            for who in (ann, ben)
        ]
    )
    assert sorted(response.status_code for response in responses) == [200, 302]
    refused = next(response for response in responses if response.status_code == 200)
    assert "only owner" in refused.content.decode()
    assert club.owner() in (ann, ben)
    assert Membership.objects.filter(club=club, role=Role.OWNER).count() == 1
