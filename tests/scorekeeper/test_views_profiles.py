"""Rule profiles: the form of every house rule, and each profile's printable summary
(scorekeeper/views/profiles.py)."""

import dataclasses

import pytest
from django.urls import reverse

import rules
from scorekeeper import services
from scorekeeper.models import RulesProfile
from tests.factories import (
    HUGE,
    make_club,
    make_game,
    make_user,
    post_refused,
    profile_data,
    profile_posted,
    text_of,
)

pytestmark = pytest.mark.django_db


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
    assert response.status_code == 302, text_of(response)
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
    assert "fewest players cannot be more than the most players" in text_of(response)
    assert not RulesProfile.objects.filter(name="Odd").exists()


def test_a_new_profile_with_other_contracts(client):
    user = make_user()
    club = make_club(user)
    client.force_login(user)
    data = profile_data(
        rules.HouseRules(), "Short game", contracts="2 books\n1 book 1 run", cards_dealt="10, 11"
    )
    response = client.post(reverse("profile_new", args=[club.pk]), data)
    assert response.status_code == 302, text_of(response)
    short = RulesProfile.objects.get(name="Short game").house_rules
    assert [(c.books, c.runs) for c in short.contracts] == [(2, 0), (1, 1)]
    assert tuple(short.cards_dealt) == (10, 11)


def test_rules_summary_is_generated_from_the_profile(client):
    user = make_user()
    club = make_club(user)
    profile = services.profile_save(
        club=club,
        name="Low aces",
        house_rules=rules.HouseRules(ace="high_or_low", min_run=3),
        user=club.owner(),
    )
    client.force_login(user)
    body = text_of(client.get(reverse("rules_summary", args=[profile.pk])))
    assert "Low aces" in body
    for line in rules.rules_summary(profile.house_rules):
        assert line in body
    client.force_login(make_user())
    assert client.get(reverse("rules_summary", args=[profile.pk])).status_code == 404


# Bad profiles


def test_the_valid_profile_used_below_is_accepted(client, member, game):
    response = client.post(reverse("profile_new", args=[game.club.pk]), profile_data())
    assert response.status_code == 302
    assert game.club.profiles.filter(name="House").exists()


PROFILE_REFUSALS = {
    "fewest above most players": (
        {"min_players": "5", "max_players": "3"},
        "cannot be more than the most",
    ),
    "a contract that is not one": ({"contracts": "banana"}, "not a contract"),
    "a contract of nothing": ({"contracts": "0 books"}, "not a contract"),
    "a superscript number": ({"contracts": "² books"}, "not a contract"),
    "a number of a hundred digits": ({"contracts": "9" * 100 + " books"}, "not a contract"),
    "no contracts": ({"contracts": "  \n "}, ""),
    "a contract nobody can hold": (
        {"contracts": "\n".join(["2 books"] * 6 + ["4 runs"]), "min_run": "6"},
        "needs at least",
    ),
    "a contract of more melds than a table plays": (
        {"contracts": "\n".join(["2 books"] * 6 + ["99 runs"])},
        "at most 4",
    ),
    "more contracts than an evening": ({"contracts": "1 book\n" * 11}, "at most 10 contracts"),
    "a contracts text longer than ten contracts": ({"contracts": "1 book " * 100}, "at most 400"),
    "more cards dealt than a hand holds": ({"cards_dealt": ",".join(["16"] * 7)}, "at most 15"),
    "a hand larger than a table holds": (
        {"cards_dealt": ",".join(["15"] * 7), "may_i_limit": "3", "decks": "3"},
        "could hold 25 cards",
    ),
    "six decks": ({"decks": "6"}, "less than or equal to 4"),
    "nine players": ({"max_players": "9"}, "less than or equal to 8"),
    "ten May I?s": ({"may_i_limit": "10"}, "less than or equal to 5"),
    "letters for cards dealt": ({"cards_dealt": "a,b"}, "whole numbers"),
    "an empty number in cards dealt": ({"cards_dealt": "11,,11"}, "whole numbers"),
    "one number for seven contracts": ({"cards_dealt": "11"}, "7 contracts but 1 numbers"),
    "no cards dealt": ({"cards_dealt": ",".join(["0"] * 7)}, "above 0"),
    "negative cards dealt": ({"cards_dealt": ",".join(["-3"] * 7)}, "above 0"),
    "no decks": ({"decks": "0"}, ""),
    "negative jokers": ({"jokers": "-1"}, ""),
    "words for a number": ({"min_book": "three"}, ""),
    "negative points": ({"points_A": "-5"}, ""),
    "an unknown choice": ({"stock_exhausted": "explode"}, ""),
    "no name": ({"name": ""}, ""),
    "a name of spaces": ({"name": "   "}, ""),
    "a name already taken": ({"name": RulesProfile.SEED_NAME}, "already a rules profile"),
    "too many players for the cards": ({"max_players": "8", "decks": "1"}, "too few"),
    "a May I? limit too large to store": ({"may_i_limit": HUGE}, ""),
    "points too large to score": ({"points_JK": HUGE}, ""),
}


@pytest.mark.parametrize(
    ("overrides", "words"), PROFILE_REFUSALS.values(), ids=PROFILE_REFUSALS.keys()
)
@pytest.mark.parametrize("page", ["new", "edit"])
def test_contradictory_or_unreadable_profiles_are_refused(
    client, member, game, short_rules, overrides, words, page
):
    if page == "new":
        target = reverse("profile_new", args=[game.club.pk])
    else:
        target = reverse("profile_edit", args=[short_rules.pk])
    post_refused(client, target, profile_data(**overrides), words)


def test_a_new_profile_offers_every_known_game_with_its_line_and_source(client):
    club = make_club()
    client.force_login(club.owner())
    page = client.get(reverse("profile_new", args=[club.pk])).content.decode()
    for variant in rules.VARIANTS:
        assert f'href="?variant={variant.key}"' in page
        assert variant.description in page
        assert f'href="{variant.source_url}"' in page
    edit = client.get(reverse("profile_edit", args=[club.profiles.get().pk]))
    assert "?variant=" not in edit.content.decode()


@pytest.mark.parametrize("variant", rules.VARIANTS[1:], ids=lambda variant: variant.key)
def test_a_profile_starts_from_a_known_game_and_changes_a_setting(client, variant):
    club = make_club()
    client.force_login(club.owner())
    url = reverse("profile_new", args=[club.pk]) + f"?variant={variant.key}"
    response = client.get(url)
    assert 'aria-current="true">' + variant.name in response.content.decode()
    data = profile_posted(response.context["form"]) | {"may_i_limit": 1}
    assert data["name"] == variant.name
    response = client.post(url, data)
    assert response.status_code == 302, text_of(response)
    saved = club.profiles.get(name=variant.name).house_rules
    assert saved == dataclasses.replace(variant.house_rules, may_i_limit=1)


def test_an_unknown_known_game_starts_from_the_seed(client):
    club = make_club()
    client.force_login(club.owner())
    response = client.get(reverse("profile_new", args=[club.pk]) + "?variant=canasta")
    assert response.status_code == 200
    form = response.context["form"]
    assert profile_posted(form) == profile_data(rules.HouseRules(), "") | {"name": ""}
    assert "aria-current" not in response.content.decode()
