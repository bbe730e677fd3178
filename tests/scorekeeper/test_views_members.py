"""The members page (scorekeeper/views/members.py), and pages that offer each role only what it
may do."""

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Membership, Role
from tests.factories import database_state, make_game, make_user, text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(game):
    return game.club


def join(club, role: Role):
    user = make_user()
    Membership.objects.create(club=club, user=user, role=role)
    return user


def test_the_owner_sees_the_invite_code_and_every_members_controls(
    client, club, django_assert_num_queries
):
    viewer = join(club, Role.VIEWER)
    client.force_login(club.owner())
    # session, user, club with role, memberships, the owners' last actions
    with django_assert_num_queries(5):
        response = client.get(reverse("members", args=[club.pk]))
    body = text_of(response)
    assert club.invite_code in body
    assert f"Remove {viewer}" in body and f"Role of {viewer}" in body
    assert "You are an owner." in body


@pytest.mark.parametrize("role", [Role.SCORER, Role.VIEWER])
def test_other_members_see_who_is_in_the_club_and_nothing_to_change(client, club, role):
    member = join(club, role)
    client.force_login(member)
    body = text_of(client.get(reverse("members", args=[club.pk])))
    assert str(club.owner()) in body and "Owner" in body
    assert club.invite_code not in body
    assert "Remove" not in body and reverse("invite_set", args=[club.pk]) not in body
    assert f"Leave {club}" in body


def test_an_owner_sets_what_the_invite_gives(client, club):
    client.force_login(club.owner())
    response = client.post(
        reverse("invite_set", args=[club.pk]), {"role": "viewer", "expires": "7"}, follow=True
    )
    club.refresh_from_db()
    assert club.invite_role == Role.VIEWER and club.invite_open
    assert club.invite_expires_at is not None
    assert "now join" in text_of(response) and "as viewers" in text_of(response)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"role": "owner", "expires": ""}, "Newcomers join as scorers or as viewers."),
        ({"role": "scorer", "expires": "365"}, "Pick how long the code works"),
        ({"expires": ""}, "This field is required."),
    ],
)
def test_a_wrong_invite_setting_says_why_and_changes_nothing(client, club, data, words):
    client.force_login(club.owner())
    before = database_state()
    response = client.post(reverse("invite_set", args=[club.pk]), data)
    assert response.status_code == 200
    assert words in text_of(response)
    assert database_state() == before


def test_a_new_code_stops_the_old_one(client, club):
    old = club.invite_code
    client.force_login(club.owner())
    response = client.post(reverse("invite_rotate", args=[club.pk]), follow=True)
    club.refresh_from_db()
    assert club.invite_code != old and club.invite_code in text_of(response)


def test_an_owner_changes_a_role_and_removes_a_member(client, club):
    viewer = join(club, Role.VIEWER)
    membership = club.memberships.get(user=viewer)
    client.force_login(club.owner())
    response = client.post(reverse("member_role", args=[membership.pk]), {"role": "scorer"})
    assert response.status_code == 302
    assert Membership.objects.get(pk=membership.pk).role == Role.SCORER
    page = text_of(client.get(response["Location"]))
    assert f'<li class="success">Saved: {viewer}\'s role is now scorer.</li>' in page
    page = client.post(reverse("member_remove", args=[membership.pk]), follow=True)
    assert f"{viewer} is no longer a member." in text_of(page)
    assert not club.memberships.filter(user=viewer).exists()


@pytest.mark.parametrize(
    ("role", "words"),
    [("boss", "A member is an owner, a scorer or a viewer."), ("viewer", "only owner")],
)
def test_a_refused_role_change_says_why(client, club, role, words):
    client.force_login(club.owner())
    owner = club.memberships.get()
    before = database_state()
    response = client.post(reverse("member_role", args=[owner.pk]), {"role": role}, follow=True)
    assert words in text_of(response)
    assert database_state() == before


def test_a_member_leaves_and_the_only_owner_is_asked_to_hand_on_first(client, club):
    scorer = join(club, Role.SCORER)
    client.force_login(scorer)
    response = client.post(reverse("club_leave", args=[club.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert f"You have left {club}." in text_of(response)
    client.force_login(club.owner())
    before = database_state()
    response = client.post(reverse("club_leave", args=[club.pk]), follow=True)
    assert "Make another member an owner first." in text_of(response)
    assert database_state() == before


def test_a_viewer_sees_the_table_and_no_button_to_change_it(client, game):
    client.force_login(join(game.club, Role.VIEWER))
    body = text_of(client.get(reverse("game", args=[game.pk])))
    assert "Scoreboard" in body
    for control in ("May I?</button>", "Went out</button>", "Check a meld", "Make a TV link"):
        assert control not in body


def test_a_scorer_has_the_table_buttons_and_not_the_clubs_settings(client, game):
    scorer = join(game.club, Role.SCORER)
    client.force_login(scorer)
    table = text_of(client.get(reverse("game", args=[game.pk])))
    assert "May I?</button>" in table and "Make a TV link" in table
    club = text_of(client.get(reverse("club", args=[game.club.pk])))
    assert "Start a table" in club and reverse("player_add", args=[game.club.pk]) in club
    for owners_only in ("Save the time zone", "+ New season", "+ New rule profile", "invite code"):
        assert owners_only not in club


def test_the_owner_has_the_clubs_settings(client, game):
    client.force_login(game.created_by)
    club = text_of(client.get(reverse("club", args=[game.club.pk])))
    for control in ("Save the time zone", "+ New season", "+ New rule profile", "invite code"):
        assert control in club


def test_a_viewer_who_opens_a_scorers_page_is_told_who_may(client, game):
    client.force_login(join(game.club, Role.VIEWER))
    response = client.get(reverse("table_check", args=[game.pk]))
    assert response.status_code == 403
    assert "Only the club's scorers and owners may do that." in text_of(response)


def test_a_foreign_membership_is_a_404(client, club):
    other = make_game(players=3).club
    client.force_login(club.owner())
    theirs = other.memberships.get()
    before = database_state()
    response = client.post(reverse("member_remove", args=[theirs.pk]))
    assert response.status_code == 404
    assert database_state() == before


def test_the_owners_actions_are_listed_for_every_member_newest_first(client, club, game):
    owner = club.owner()
    ben = join(club, Role.VIEWER)
    cat = join(club, Role.SCORER)
    services.member_role_set(
        membership=club.memberships.get(user=ben), user=owner, role=Role.SCORER
    )
    services.club_invite_rotate(club=club, user=owner)
    services.member_remove(membership=club.memberships.get(user=cat), user=owner)
    services.game_delete(game=game, user=owner)
    client.force_login(ben)
    body = text_of(client.get(reverse("members", args=[club.pk])))
    listed = body.split("What the owners did")[1].split("</ul>")[0]
    lines = [line.split(": ", 1)[1] for line in listed.split("<li>")[1:]]
    assert [line.strip().removesuffix("</li>") for line in lines] == [
        f"{owner} deleted {game}",
        f"{owner} took {cat} out of the club",
        f"{owner} made a new invite code",
        f"{owner} made {ben} scorer",
    ]


def test_a_refused_owner_action_is_not_listed(client, club):
    owner = club.owner()
    with pytest.raises(services.ActionRefused):
        services.member_role_set(
            membership=club.memberships.get(user=owner), user=owner, role=Role.VIEWER
        )
    assert not club.owner_actions.exists()


def test_a_role_change_is_said_and_kept_in_the_owners_language(client, club):
    viewer = join(club, Role.VIEWER)
    membership = club.memberships.get(user=viewer)
    client.force_login(club.owner())
    spanish = {"accept-language": "es"}
    response = client.post(
        reverse("member_role", args=[membership.pk]), {"role": "owner"}, headers=spanish
    )
    page = text_of(client.get(response["Location"], headers=spanish))
    assert f"Guardado: {viewer} ahora es dueño." in page
    assert "Entran como anotadores." in page  # the invite code, its role in the plural
    # The owners' audit trail is written in the language the owner acted in.
    assert club.owner_actions.get().summary == f"hizo dueño a {viewer}"
