"""Accounts (scorekeeper/views/accounts.py): signing up, e-mail, password reset and change,
deleting an account, and throttled attempts."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Membership, Role
from tests.factories import PASSWORD, eleventh_sign_up, make_game, make_user, play_round

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


def test_sign_up_with_an_optional_email(client):
    data = {"username": "ann", "password1": "Tab1e-talk!", "password2": "Tab1e-talk!"}
    assert client.post(reverse("signup"), {**data, "email": "ann@example.org"}).status_code == 302
    assert get_user_model().objects.get(username="ann").email == "ann@example.org"
    client.logout()
    data["username"] = "ben"
    assert client.post(reverse("signup"), data).status_code == 302
    assert get_user_model().objects.get(username="ben").email == ""


def make_user_with_email(email: str):
    user = make_user()
    user.email = email
    user.save(update_fields=["email"])
    return user


def test_a_forgotten_password_is_reset_by_email(client):
    user = make_user_with_email("cat@example.org")
    response = client.post(reverse("password_reset"), {"email": "cat@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+", mail.outbox[0].body).group(0)
    page = client.get(link, follow=True)
    assert "Choose a new password" in page.content.decode()
    new = {"new_password1": "Sh4nghai-again", "new_password2": "Sh4nghai-again"}
    client.post(page.redirect_chain[-1][0], new)
    user.refresh_from_db()
    assert user.check_password("Sh4nghai-again")


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_change_the_password_and_the_old_address_is_told(client):
    user = make_user_with_email("ann@example.org")
    client.force_login(user)
    new = {"old_password": PASSWORD, "new_password1": "Sh4nghai-2", "new_password2": "Sh4nghai-2"}
    assert client.post(reverse("password_change"), new).status_code == 302
    user.refresh_from_db()
    assert user.check_password("Sh4nghai-2")
    [notice] = mail.outbox
    assert notice.to == ["ann@example.org"]
    assert "password was changed" in notice.subject
    assert "someone knows your password" in notice.body


def reset_mails(client, address: str) -> list[str]:
    """Who the password reset asked for `address` mailed."""
    before = len(mail.outbox)
    client.post(reverse("password_reset"), {"email": address}, REMOTE_ADDR="10.3.0.1")
    return [to for message in mail.outbox[before:] for to in message.to]


def test_a_new_address_is_the_accounts_only_once_its_link_is_opened(client):
    user = make_user_with_email("ann@example.org")
    client.force_login(user)
    page = client.get(reverse("account")).content.decode()
    assert 'name="password"' in page and "Your password, to confirm" in page

    data = {"email": "ann@elsewhere.example", "password": PASSWORD}
    response = client.post(reverse("account"), data, follow=True)
    assert "We sent a link to ann@elsewhere.example" in response.content.decode()
    user.refresh_from_db()
    assert user.email == "ann@example.org"
    notice, confirmation = mail.outbox
    assert notice.to == ["ann@example.org"]
    assert "ann@elsewhere.example" in notice.body and "someone knows your password" in notice.body
    assert confirmation.to == ["ann@elsewhere.example"]
    link = re.search(r"https?://\S+", confirmation.body).group(0)

    # Until the link is opened, a reset goes to the old address only.
    assert reset_mails(client, "ann@elsewhere.example") == []
    assert reset_mails(client, "ann@example.org") == ["ann@example.org"]

    client.logout()  # the link needs no log-in: opened on the phone the mail came to
    opened = client.get(link)
    assert "Use this address" in opened.content.decode()
    user.refresh_from_db()
    assert user.email == "ann@example.org"  # opening it (a mail scanner, say) changes nothing
    assert client.post(link).status_code == 302
    user.refresh_from_db()
    assert user.email == "ann@elsewhere.example"
    assert reset_mails(client, "ann@elsewhere.example") == ["ann@elsewhere.example"]
    assert reset_mails(client, "ann@example.org") == []
    # Used once; it no longer works.
    assert "no longer works" in client.post(link).content.decode()


@pytest.mark.parametrize(
    ("password", "email", "error"),
    [
        ("wrong-password", "eve@example.org", "not your password, so the address was not"),
        ("", "eve@example.org", "This field is required."),
        (PASSWORD, "not an address", "Enter a valid email address."),
    ],
)
def test_the_address_is_not_changed_without_the_password(client, password, email, error):
    user = make_user_with_email("ann@example.org")
    client.force_login(user)
    response = client.post(reverse("account"), {"email": email, "password": password})
    assert response.status_code == 200
    assert error in response.content.decode()
    user.refresh_from_db()
    assert user.email == "ann@example.org"
    assert mail.outbox == []


def test_an_old_link_dies_when_the_address_or_the_password_changed(client):
    user = make_user_with_email("ann@example.org")
    client.force_login(user)
    links = []
    for address in ("first@example.org", "second@example.org"):
        client.post(reverse("account"), {"email": address, "password": PASSWORD})
        links.append(re.search(r"https?://\S+", mail.outbox[-1].body).group(0))
    client.post(links[1])
    assert "no longer works" in client.post(links[0]).content.decode()
    client.post(reverse("account"), {"email": "third@example.org", "password": PASSWORD})
    third = re.search(r"https?://\S+", mail.outbox[-1].body).group(0)
    user.refresh_from_db()
    user.set_password("Sh4nghai-2")
    user.save(update_fields=["password"])
    assert "no longer works" in client.post(third).content.decode()
    assert "not whole" in client.post(third[:-5] + "/").content.decode()
    user.refresh_from_db()
    assert user.email == "second@example.org"


def test_removing_the_address_tells_it(client):
    user = make_user_with_email("ann@example.org")
    client.force_login(user)
    response = client.post(reverse("account"), {"email": "", "password": PASSWORD}, follow=True)
    assert "Removed your e-mail address." in response.content.decode()
    user.refresh_from_db()
    assert user.email == ""
    [notice] = mail.outbox
    assert notice.to == ["ann@example.org"] and "was removed" in notice.subject


def test_deleting_an_account_keeps_the_finished_games_for_the_others(client):
    game = make_game(players=3)
    play_round(game)
    leaver, stayer = game.created_by, make_user()
    services.club_join(user=stayer, invite_code=game.club.invite_code)
    joined = game.club.memberships.get(user=stayer)
    services.member_role_set(membership=joined, user=leaver, role=Role.OWNER)
    client.force_login(leaver)
    response = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(pk=leaver.pk).exists()
    client.force_login(stayer)
    page = client.get(reverse("history", args=[game.pk]))
    assert page.status_code == 200
    assert "Contract 1 scored" in page.content.decode()


@pytest.mark.parametrize(
    ("password", "other_member", "reason"),
    [
        ("wrong-password", Role.OWNER, "not your password"),
        (PASSWORD, None, "only owner"),
        # Scorers and viewers cannot run the club: it still needs an owner.
        (PASSWORD, Role.SCORER, "only owner"),
    ],
)
def test_an_account_is_not_deleted_by_mistake(client, password, other_member, reason):
    game = make_game(players=3)
    if other_member:
        other = make_user()
        Membership.objects.create(club=game.club, user=other, role=other_member)
    client.force_login(game.created_by)
    response = client.post(reverse("account_delete"), {"password": password})
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert get_user_model().objects.filter(pk=game.created_by_id).exists()


def test_account_pages_need_a_member_and_the_right_method(client, user):
    assert client.get(reverse("account_delete")).status_code == 405
    client.logout()
    assert client.get(reverse("account")).status_code == 302


def test_a_password_guesser_is_locked_out_of_that_account_at_that_address(client):
    user = make_user("eve-target")
    wrong = {"username": user.username, "password": "guess"}
    for _ in range(4):
        assert client.post(reverse("login"), wrong, REMOTE_ADDR="10.0.0.7").status_code == 200
    assert client.post(reverse("login"), wrong, REMOTE_ADDR="10.0.0.7").status_code == 429
    right = {"username": user.username, "password": PASSWORD}
    response = client.post(reverse("login"), right, REMOTE_ADDR="10.0.0.7")
    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    # The account's owner, from another address, is not locked out (test_lockout.py).
    assert client.post(reverse("login"), right, REMOTE_ADDR="10.0.0.8").status_code == 302


def test_sign_ups_from_one_address_are_limited(client):
    assert eleventh_sign_up(client).status_code == 429
    assert not get_user_model().objects.filter(username="u10").exists()


def test_password_resets_for_one_address_are_limited(client):
    for n in range(3):
        client.post(
            reverse("password_reset"), {"email": "a@example.org"}, REMOTE_ADDR=f"10.1.0.{n}"
        )
    response = client.post(
        reverse("password_reset"), {"email": "a@example.org"}, REMOTE_ADDR="10.1.0.9"
    )
    assert response.status_code == 429


def test_invite_code_guesses_are_limited_per_account(client, user):
    game = make_game(players=3)
    for _ in range(10):
        client.post(reverse("club_join"), {"invite_code": "wrong-code"})
    response = client.post(reverse("club_join"), {"invite_code": game.club.invite_code})
    assert response.status_code == 429
    assert not game.club.memberships.filter(user=user).exists()


def password_typed(where: str, password: str) -> dict:
    if where == "account_delete":
        return {"password": password}
    if where == "account":
        return {"email": "eve@example.org", "password": password}
    new = "N3w-secret!"
    return {"old_password": password, "new_password1": new, "new_password2": new}


@pytest.mark.parametrize("where", ["account_delete", "password_change", "account"])
def test_password_guesses_to_delete_or_change_are_locked_out_like_the_login(client, where):
    user = make_user("eve-in-a-borrowed-session")
    client.force_login(user)
    for _ in range(5):
        assert client.post(reverse(where), password_typed(where, "guess")).status_code == 200
    response = client.post(reverse(where), password_typed(where, PASSWORD))
    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)  # neither deleted nor changed
    assert user.email == ""


def test_a_right_password_to_change_it_is_not_counted(client):
    user = make_user("ann")
    client.force_login(user)
    for n in range(6):
        new = f"N3w-secret-{n}!"
        old = PASSWORD if n == 0 else f"N3w-secret-{n - 1}!"
        data = {"old_password": old, "new_password1": new, "new_password2": new}
        assert client.post(reverse("password_change"), data).status_code == 302
        client.force_login(user)


def test_password_resets_for_one_mailbox_are_limited_whatever_its_case(client):
    for n, spelling in enumerate(["Ann@Example.org", "ann@example.org", " ANN@EXAMPLE.ORG"]):
        client.post(reverse("password_reset"), {"email": spelling}, REMOTE_ADDR=f"10.2.0.{n}")
    response = client.post(
        reverse("password_reset"), {"email": "ann@Example.ORG"}, REMOTE_ADDR="10.2.0.9"
    )
    assert response.status_code == 429


def log_in_through_the_form(client, user) -> None:
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302


def test_logging_out_everywhere_else_ends_the_other_browsers_sessions(client):
    ann = make_user("ann")
    phone, borrowed, elsewhere = Client(), Client(), Client()
    for browser in (client, phone, borrowed):
        log_in_through_the_form(browser, ann)
    log_in_through_the_form(elsewhere, make_user("ben"))
    logged_out = Client()
    log_in_through_the_form(logged_out, ann)
    logged_out.post(reverse("logout"))
    assert "signed in on 2 other browsers too" in client.get(reverse("account")).content.decode()

    response = client.post(reverse("sessions_end"), follow=True)
    assert "Logged out 2 other browsers." in response.content.decode()
    assert "signed in here only" in response.content.decode()
    for browser in (phone, borrowed):
        assert browser.get(reverse("home")).status_code == 302  # to log in
    assert client.get(reverse("home")).status_code == 200
    assert elsewhere.get(reverse("home")).status_code == 200  # another account's


def test_logging_out_everywhere_else_needs_a_post_and_a_login(client):
    assert client.post(reverse("sessions_end")).status_code == 302
    client.force_login(make_user())
    assert client.get(reverse("sessions_end")).status_code == 405
