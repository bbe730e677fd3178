"""A shared tablet's session (scorekeeper/middleware.py, tablet_sessions): the club's idle time,
enforced on the server, and the tag of the session that the service worker keys its pages to."""

import re
import time

import pytest
from django.contrib.sessions.models import Session
from django.db import IntegrityError
from django.urls import reverse

from scorekeeper import services
from scorekeeper.middleware import IDLE, SEEN, SESSION_TAG_COOKIE, SESSION_TAG_HEADER
from scorekeeper.models import Club
from tests.factories import make_club, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def club():
    return make_club()


@pytest.fixture
def owner(club):
    return club.memberships.get().user


def idle_club(club, minutes):
    Club.objects.filter(pk=club.pk).update(tablet_idle_minutes=minutes)


def seen_ago(client, seconds):
    session = client.session
    session[SEEN] = time.time() - seconds
    session.save()


# The club's setting


def test_the_owner_sets_the_idle_time_and_empties_it(client, club, owner):
    client.force_login(owner)
    url = reverse("club_tablet_idle", args=[club.pk])
    assert client.get(url).status_code == 405
    assert client.post(url, {"minutes": "30"}).status_code == 302
    club.refresh_from_db()
    assert club.tablet_idle_minutes == 30
    assert 'name="minutes" value="30"' in client.get(club.get_absolute_url()).content.decode()
    assert client.post(url, {"minutes": ""}).status_code == 302
    club.refresh_from_db()
    assert club.tablet_idle_minutes is None


@pytest.mark.parametrize(
    ("minutes", "said"),
    [("9", "At least 10 minutes"), ("721", "At most 720"), ("١٢", "whole number")],
)
def test_an_idle_time_out_of_bounds_is_refused_in_words(client, club, owner, minutes, said):
    client.force_login(owner)
    response = client.post(reverse("club_tablet_idle", args=[club.pk]), {"minutes": minutes})
    assert response.status_code == 200
    assert said in response.content.decode()
    club.refresh_from_db()
    assert club.tablet_idle_minutes is None


def test_the_database_refuses_an_idle_time_out_of_bounds(club):
    with pytest.raises(IntegrityError):
        idle_club(club, 5)


def test_only_an_owner_sets_the_idle_time(client, club):
    scorer = make_user()
    club.memberships.create(user=scorer, role="scorer")
    client.force_login(scorer)
    assert (
        client.post(reverse("club_tablet_idle", args=[club.pk]), {"minutes": "30"}).status_code
        == 403
    )
    with pytest.raises(services.RoleRefused):
        services.club_set_tablet_idle(club=club, user=scorer, minutes=30)


# The idle time, on the server


def test_a_member_idle_longer_than_the_club_allows_is_signed_out(client, club, owner):
    idle_club(club, 10)
    client.force_login(owner)
    key = client.session.session_key
    seen_ago(client, 10 * 60 + 5)
    response = client.get(club.get_absolute_url())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Session.objects.filter(session_key=key).exists()
    assert response[SESSION_TAG_HEADER] == "none"


def test_a_member_within_the_idle_time_stays_and_their_action_starts_it_again(client, club, owner):
    idle_club(club, 10)
    client.force_login(owner)
    seen_ago(client, 10 * 60 - 30)
    assert client.get(club.get_absolute_url()).status_code == 200
    assert time.time() - client.session[SEEN] < 5


def test_a_screens_polls_are_no_action(client, club, owner):
    # A tablet left on a round screen polls every second: it is idle all the same.
    idle_club(club, 10)
    client.force_login(owner)
    seen_ago(client, 5 * 60)
    before = client.session[SEEN]
    assert client.get(club.get_absolute_url(), headers=HTMX).status_code == 200
    assert client.session[SEEN] == before


def test_a_club_without_an_idle_time_signs_nobody_out(client, club, owner):
    client.force_login(owner)
    seen_ago(client, 24 * 60 * 60)
    assert client.get(club.get_absolute_url()).status_code == 200


def test_the_shortest_idle_time_of_the_members_clubs_applies(client, club, owner):
    other = make_club(owner)
    idle_club(club, 60)
    idle_club(other, 15)
    client.force_login(owner)
    assert client.session[IDLE] == 15


def test_an_idle_time_set_later_is_taken_up_at_the_next_action_a_minute_on(client, club, owner):
    client.force_login(owner)
    services.club_set_tablet_idle(club=club, user=owner, minutes=20)
    seen_ago(client, 61)
    client.get(club.get_absolute_url())
    assert client.session[IDLE] == 20


# The session's tag


def tag_cookie(response):
    return response.cookies.get(SESSION_TAG_COOKIE)


def test_a_login_tags_the_session_in_a_cookie_scripts_read_and_on_the_page(client, club, owner):
    response = client.post(
        reverse("login"), {"username": owner.username, "password": "a-long-test-password"}
    )
    cookie = tag_cookie(response)
    assert re.fullmatch(r"[0-9a-f]{24}", cookie.value)
    assert not cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    assert cookie.value not in client.session.session_key
    page = client.get(club.get_absolute_url())
    assert page[SESSION_TAG_HEADER] == cookie.value
    assert f'<html lang="en" data-session="{cookie.value}">' in page.content.decode()


def test_the_tag_lasts_no_longer_than_the_idle_time(client, club, owner):
    idle_club(club, 30)
    client.force_login(owner)
    seen_ago(client, 120)
    response = client.get(club.get_absolute_url())
    assert 30 * 60 - 2 <= tag_cookie(response)["max-age"] <= 30 * 60


def test_another_session_has_another_tag(client, club, owner):
    client.force_login(owner)
    first = client.get(club.get_absolute_url())[SESSION_TAG_HEADER]
    client.logout()
    client.force_login(owner)
    assert client.get(club.get_absolute_url())[SESSION_TAG_HEADER] not in ("none", first)


def test_a_session_ended_elsewhere_is_said_and_its_tag_deleted_at_the_next_answer(
    client, club, owner
):
    client.force_login(owner)
    tag = tag_cookie(client.get(club.get_absolute_url())).value
    client.cookies[SESSION_TAG_COOKIE] = tag
    services.sessions_end_others(user=owner, session_key="the phone's")
    response = client.get(club.get_absolute_url(), headers=HTMX)
    assert response[SESSION_TAG_HEADER] == "none"
    assert tag_cookie(response).value == "" and tag_cookie(response)["max-age"] == 0


def test_a_logout_deletes_the_tag(client, club, owner):
    client.force_login(owner)
    client.get(club.get_absolute_url())
    response = client.post(reverse("logout"))
    assert response[SESSION_TAG_HEADER] == "none"
    assert tag_cookie(response)["max-age"] == 0


def test_a_browser_signed_in_to_nothing_is_told_so_and_given_no_tag(client):
    response = client.get(reverse("login"))
    assert response[SESSION_TAG_HEADER] == "none"
    assert tag_cookie(response) is None
