"""Names are one canonical text wherever they enter (scorekeeper/names.py): the forms, the
services and the importer all clean them, so "Ann", " Ann " and "A\u200bnn" are one player."""

import json

import pytest
from django.urls import reverse

import rules
from scorekeeper import services
from scorekeeper.forms import ClubForm, PlayerForm, ProfileForm, SeasonForm
from scorekeeper.models import Player
from scorekeeper.names import NameRefused, name_clean
from scorekeeper.selectors import archive
from tests.factories import (
    make_club,
    make_player,
    make_user,
    post_refused,
    profile_data,
    text_of,
)

CLEANED = [
    ("Ann", "Ann"),
    ("  Ann  ", "Ann"),
    ("Ann\u200b", "Ann"),
    ("A\u200bnn", "Ann"),
    ("A\u200c\u200d\u2060\ufeffnn", "Ann"),
    ("\u202eAnn\u202c", "Ann"),
    ("\u2066Ann\u2069\u200e\u200f", "Ann"),
    ("Ann\x00\x07\x1b", "Ann"),
    ("Mary\tJo\nSmith", "Mary Jo Smith"),
    ("Mary \u00a0\u3000 Jo", "Mary Jo"),
    ("Ren\u0065\u0301e", "Ren\u00e9e"),  # e and a combining accent: one é (NFC)
    ("Ren\u0065\u200b\u0301e", "Ren\u00e9e"),  # a zero-width space no longer keeps them apart
    ("Zoë 🃏", "Zoë 🃏"),
    ("<b>Ann</b>", "<b>Ann</b>"),  # kept as typed: templates escape it
]


@pytest.mark.parametrize(("typed", "cleaned"), CLEANED)
def test_a_name_is_cleaned_to_one_canonical_text(typed, cleaned):
    assert name_clean(typed, max_length=40) == cleaned


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("", "only spaces or invisible characters"),
        (" \t\u200b\u202e\ufeff ", "only spaces or invisible characters"),
        ("x" * 41, "at most 40 characters; this one has 41"),
        (None, "must be text"),
    ],
)
def test_a_name_empty_once_cleaned_or_too_long_is_refused(typed, reason):
    with pytest.raises(NameRefused, match=reason):
        name_clean(typed, max_length=40)


def test_the_length_is_counted_after_cleaning():
    assert name_clean("\u200b" * 100 + "x" * 40, max_length=40) == "x" * 40


@pytest.mark.parametrize(
    ("form", "data"),
    [
        (PlayerForm, {}),
        (ClubForm, {}),
        (SeasonForm, {"starts_on": "2026-01-01"}),
    ],
)
def test_every_name_form_cleans_and_refuses_invisible_names(form, data):
    cleaned = form({**data, "name": " A\u200bnn\u202e "})
    assert cleaned.is_valid(), cleaned.errors
    assert cleaned.cleaned_data["name"] == "Ann"
    refused = form({**data, "name": "\u200b\u2066\x00"})
    assert refused.errors["name"] == [
        "Enter a name that shows: this one is only spaces or invisible characters."
    ]


def test_the_profile_form_cleans_its_name():
    form = ProfileForm(profile_data(rules.HouseRules(), "\u202eQuick\u200b  game"))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["name"] == "Quick game"


@pytest.mark.django_db
@pytest.mark.parametrize("twin", ["ann", "A\u200bnn", " Ann ", "\u2066ANN\u2069", "An\u00adn"])
def test_a_player_named_like_another_one_is_refused_by_the_service(twin):
    club = make_club()
    make_player(club, "Ann")
    with pytest.raises(services.ActionRefused, match="^There is already a player called Ann.$"):
        services.player_create(user=club.owner(), club=club, name=twin)
    assert list(club.players.values_list("name", flat=True)) == ["Ann"]


@pytest.mark.django_db
def test_case_is_compared_beyond_ascii_on_every_database():
    """SQLite's LOWER() folds only ASCII letters: the services compare names themselves."""
    club = make_club()
    make_player(club, "Émile")
    with pytest.raises(services.ActionRefused, match="already a player called Émile"):
        services.player_create(user=club.owner(), club=club, name="émile")


@pytest.mark.django_db
def test_services_store_names_cleaned_and_refuse_invisible_ones():
    user = make_user()
    club = services.club_create(user=user, name=" Thursday\u200b  night ")
    assert club.name == "Thursday night"
    assert services.player_create(user=club.owner(), club=club, name="\u202eBen\t").name == "Ben"
    season = services.season_create(
        user=club.owner(), club=club, name="Spring\u200b", starts_on="2026-03-01"
    )
    assert season.name == "Spring"
    with pytest.raises(services.ActionRefused, match="already a season called Spring"):
        services.season_create(user=club.owner(), club=club, name="SPRING", starts_on="2026-03-01")
    profile = services.profile_save(
        user=club.owner(), club=club, name="Quick\ufeff", house_rules=rules.HouseRules()
    )
    assert profile.name == "Quick"
    with pytest.raises(services.ActionRefused, match="already a rules profile called Quick"):
        services.profile_save(
            user=club.owner(), club=club, name="quick", house_rules=rules.HouseRules()
        )
    # Renaming a profile to its own name in another case is no clash with itself.
    assert (
        services.profile_save(
            user=club.owner(),
            club=club,
            name="QUICK",
            house_rules=rules.HouseRules(),
            profile=profile,
        ).name
        == "QUICK"
    )
    for create in [
        lambda: services.club_create(user=user, name="\u200b"),
        lambda: services.player_create(user=club.owner(), club=club, name=" \x00 "),
        lambda: services.season_create(
            user=club.owner(), club=club, name="\u2066\u2069", starts_on="2026-03-01"
        ),
    ]:
        with pytest.raises(services.ActionRefused, match="only spaces or invisible"):
            create()
    assert list(club.players.values_list("name", flat=True)) == ["Ben"]


@pytest.mark.django_db
def test_the_player_form_says_who_is_already_there(client):
    user = make_user()
    club = make_club(user)
    make_player(club, "Ann")
    client.force_login(user)
    body = post_refused(
        client, reverse("player_add", args=[club.pk]), {"name": "A\u200bnn"}, status=(200,)
    )
    assert "There is already a player called Ann." in body
    response = client.post(reverse("player_add", args=[club.pk]), {"name": "\u202eBen\u200b"})
    assert response.status_code == 302
    assert Player.objects.filter(club=club).order_by("name").last().name == "Ben"
    assert "Ben" in text_of(client.get(club.get_absolute_url()))


@pytest.mark.django_db
def test_an_import_stores_names_cleaned():
    club = make_club(make_user())
    make_player(club, "Ann")
    payload = json.loads(archive.club_export_json(club))["payload"]
    payload["models"]["player"][0]["name"] = " A\u200bnn\u202e "
    empty = make_club(make_user())
    services.club_import(user=empty.owner(), club=empty, document=archive.club_document(payload))
    assert list(empty.players.values_list("name", flat=True)) == ["Ann"]


@pytest.mark.django_db
def test_a_name_stored_before_names_were_cleaned_still_counts():
    """Names are not rewritten by a migration (two could become one); they compare cleaned."""
    club = make_club()
    Player.objects.create(club=club, name="A\u200bnn")
    with pytest.raises(services.ActionRefused, match="already a player called"):
        services.player_create(user=club.owner(), club=club, name="ann")
