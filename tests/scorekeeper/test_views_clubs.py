import html

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

import rules
from scorekeeper.models import Club, Game, Player, RulesProfile
from tests.factories import make_club, make_game, make_user

pytestmark = pytest.mark.django_db


def test_sign_up_logs_in_and_lands_home(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "ann",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
        },
    )
    assert response.status_code == 302
    assert client.get(reverse("home")).status_code == 200
    assert get_user_model().objects.filter(username="ann").exists()


def test_home_sends_anonymous_visitors_to_log_in(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_creating_a_club_and_joining_it_with_the_code(client):
    founder = make_user()
    client.force_login(founder)
    response = client.post(reverse("club_new"), {"name": "Thursday"})
    club = Club.objects.get()
    assert response["Location"] == club.get_absolute_url()
    friend = make_user()
    client.force_login(friend)
    assert client.get(club.get_absolute_url()).status_code == 404
    client.post(reverse("club_join"), {"invite_code": club.invite_code})
    assert client.get(club.get_absolute_url()).status_code == 200
    wrong = client.post(reverse("club_join"), {"invite_code": "nope"})
    assert "No club has that invite code" in wrong.content.decode()


def test_adding_players_by_htmx_and_refusing_a_duplicate(client):
    user = make_user()
    club = make_club(user)
    client.force_login(user)
    url = reverse("player_add", args=[club.pk])
    response = client.post(url, {"name": "Ann"}, headers={"HX-Request": "true"})
    assert response.content.decode().lstrip().startswith('<div id="players">')
    response = client.post(url, {"name": "ANN"}, headers={"HX-Request": "true"})
    assert "already has a player called ANN" in html.unescape(response.content.decode())
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann"]
    assert client.get(url).status_code == 405


def test_another_clubs_pages_are_404(client):
    club = make_club()
    client.force_login(make_user())
    for name in ["club", "game_new", "profile_new"]:
        assert client.get(reverse(name, args=[club.pk])).status_code == 404
    assert client.post(reverse("player_add", args=[club.pk]), {"name": "X"}).status_code == 404
    profile = club.profiles.get()
    assert client.get(reverse("profile_edit", args=[profile.pk])).status_code == 404
    assert not Player.objects.exists()


def profile_data(house_rules: rules.HouseRules, name: str, **changes) -> dict:
    """What the profile form posts for these rules, with some fields changed."""
    from scorekeeper.forms import ProfileForm

    form = ProfileForm(house_rules=house_rules, name=name)
    data = {}
    for bound in form:
        value = bound.initial if bound.initial is not None else bound.field.initial
        if isinstance(value, bool):
            if value:
                data[bound.html_name] = "on"
        elif value is not None:
            data[bound.html_name] = value
    data.update(changes)
    return data


def test_editing_a_profile_through_the_form(client):
    user = make_user()
    club = make_club(user)
    game = make_game(club)
    profile = club.profiles.get()
    client.force_login(user)
    url = reverse("profile_edit", args=[profile.pk])
    assert client.get(url).status_code == 200
    data = profile_data(profile.house_rules, profile.name, may_i_limit=3, points_A=15)
    response = client.post(url, data)
    assert response.status_code == 302, html.unescape(response.content.decode())
    profile.refresh_from_db()
    assert profile.house_rules.may_i_limit == 3
    assert rules.penalty_points(rules.parse_cards("AH"), profile.house_rules) == 15
    game.refresh_from_db()
    assert game.house_rules.may_i_limit == 2


def test_a_contradictory_profile_is_refused_with_the_rules_reason(client):
    user = make_user()
    club = make_club(user)
    client.force_login(user)
    data = profile_data(rules.HouseRules(), "Odd", min_players=6, max_players=4)
    response = client.post(reverse("profile_new", args=[club.pk]), data)
    assert response.status_code == 200
    assert 'class="refusal"' in response.content.decode()
    assert not RulesProfile.objects.filter(name="Odd").exists()


def test_a_new_profile_with_other_contracts(client):
    user = make_user()
    club = make_club(user)
    client.force_login(user)
    data = profile_data(
        rules.HouseRules(), "Short game", contracts="2 books\n1 book 1 run", cards_dealt="10, 11"
    )
    response = client.post(reverse("profile_new", args=[club.pk]), data)
    assert response.status_code == 302, html.unescape(response.content.decode())
    short = RulesProfile.objects.get(name="Short game").house_rules
    assert [(c.books, c.runs) for c in short.contracts] == [(2, 0), (1, 1)]
    assert tuple(short.cards_dealt) == (10, 11)


def test_seed_demo_makes_a_lived_in_club_once():
    call_command("seed_demo")
    club = Club.objects.get(name="Thursday Night Shanghai")
    assert club.players.count() == 5
    assert Game.objects.finished().filter(club=club).count() == 3
    assert Game.objects.in_progress().filter(club=club).count() == 1
    call_command("seed_demo")
    assert Club.objects.count() == 1
