"""Two-factor sign-in (scorekeeper/views/two_factor.py, services/two_factor.py): turning it on
with the QR code, the code asked after the password, recovery codes, wrong codes limited, turning
it off, and the admin asking staff for it. The codes are computed with django-otp's own TOTP."""

import re
from base64 import b32encode
from binascii import unhexlify

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from scorekeeper.views.accounts import LOGIN_PENDING
from tests.factories import app_code, log_in_with_code, make_user, two_factor_turn_on

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"


def signed_in(client) -> bool:
    return client.get(reverse("account")).status_code == 200


def test_a_member_turns_it_on_with_the_qr_code_and_the_password(client):
    user = make_user()
    user.email = "ann@example.org"
    user.save(update_fields=["email"])
    client.force_login(user)
    page = client.get(reverse("account")).content.decode()
    assert "Off: the password alone logs in." in page
    assert reverse("two_factor_enable") in page

    page = client.get(reverse("two_factor_enable")).content.decode()
    key = client.session["two_factor_key"]
    assert "<svg" in page and "https://" not in page.split("<svg")[1].split("</svg>")[0]
    secret = re.search(r'<code class="secret">([A-Z2-7 ]+)</code>', page).group(1)
    # The secret to type by hand is the key the app's codes come from, as apps read it.
    assert secret.replace(" ", "") == b32encode(unhexlify(key)).decode()

    wrong_password = {"code": app_code(key, 0), "password": "guess"}
    response = client.post(reverse("two_factor_enable"), wrong_password)
    assert "not your password, so two-factor sign-in was not turned on" in response.content.decode()
    response = client.post(reverse("two_factor_enable"), {"code": "000000", "password": PASSWORD})
    assert "That is not the code your app shows now" in response.content.decode()
    assert not TOTPDevice.objects.exists()

    response = client.post(
        reverse("two_factor_enable"), {"code": app_code(key, 0), "password": PASSWORD}
    )
    assert response.status_code == 200
    codes = re.findall(r"<li><code>([a-z2-7]+)</code></li>", response.content.decode())
    assert len(codes) == 10
    assert "not shown again" in response.content.decode()
    assert response["Cache-Control"].startswith("max-age=0")
    device = TOTPDevice.objects.get(user=user)
    assert device.confirmed and device.key == key
    [notice] = mail.outbox
    assert notice.to == ["ann@example.org"] and "turned on" in notice.subject
    page = client.get(reverse("account")).content.decode()
    assert "On: logging in asks for a code" in page and "10 recovery codes left" in page
    # Turned on here: this browser counts as signed in with a code (the admin lets staff in).
    assert client.get(reverse("two_factor_enable")).status_code == 302


def test_the_login_asks_for_the_code_after_the_password(client):
    user = make_user()
    key, _ = two_factor_turn_on(user)
    form = {"username": user.username, "password": PASSWORD, "next": "/clubs/new/"}
    response = client.post(reverse("login"), form)
    assert response["Location"] == reverse("login_code")
    assert not signed_in(client)  # the password alone did not log in
    page = client.get(reverse("login_code")).content.decode()
    assert "authenticator app" in page and 'autocomplete="one-time-code"' in page

    code = app_code(key)  # once: a second reading could fall in the next 30 s step
    response = client.post(reverse("login_code"), {"code": code})
    assert response.status_code == 302 and response["Location"] == "/clubs/new/"
    assert signed_in(client)
    assert client.session["otp_device_id"] == TOTPDevice.objects.get(user=user).persistent_id
    # The same code does not log in twice (django-otp keeps the step of the last one).
    client.logout()
    client.post(reverse("login"), form)
    response = client.post(reverse("login_code"), {"code": code})
    assert "That is not the code your app shows" in response.content.decode()
    assert not signed_in(client)


def test_a_recovery_code_logs_in_once(client):
    user = make_user()
    _, codes = two_factor_turn_on(user)
    form = {"username": user.username, "password": PASSWORD}
    client.post(reverse("login"), form)
    # As people copy them: upper case, with spaces.
    response = client.post(reverse("login_code"), {"code": f" {codes[3].upper()} "})
    assert response.status_code == 302 and signed_in(client)
    assert StaticToken.objects.filter(device__user=user).count() == 9
    assert "9 recovery codes left" in client.get(reverse("account")).content.decode()
    client.logout()
    client.post(reverse("login"), form)
    response = client.post(reverse("login_code"), {"code": codes[3]})
    assert "not one of your recovery codes, or it was used already" in response.content.decode()
    assert not signed_in(client)


def test_the_code_step_needs_a_fresh_password(client):
    user = make_user()
    key, _ = two_factor_turn_on(user)
    # Nobody typed a password in this browser.
    response = client.post(reverse("login_code"), {"code": app_code(key)})
    assert response["Location"] == reverse("login")
    client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    session = client.session
    session[LOGIN_PENDING] = {**session[LOGIN_PENDING], "at": session[LOGIN_PENDING]["at"] - 301}
    session.save()
    response = client.post(reverse("login_code"), {"code": app_code(key)}, follow=True)
    assert "the code must follow the password within minutes" in response.content.decode()
    assert not signed_in(client)


def test_wrong_codes_count_as_failed_logins_and_lock_the_account_out(client, settings):
    """django-axes counts a wrong code like a wrong password (DJANGO_LOGIN_ATTEMPTS in all);
    django-otp's own wait between wrong codes is off here, to see the count alone."""
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    user = make_user("eve-knows-the-password")
    key, _ = two_factor_turn_on(user)
    form = {"username": user.username, "password": PASSWORD}
    client.post(reverse("login"), {**form, "password": "guess"})  # one wrong password first
    client.post(reverse("login"), form)
    for _ in range(3):
        response = client.post(reverse("login_code"), {"code": "123456"})
        assert response.status_code == 200
    response = client.post(reverse("login_code"), {"code": "123456"})
    assert response.status_code == 429
    response = client.post(reverse("login_code"), {"code": app_code(key)})
    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    assert not signed_in(client)
    # The password step is locked too, for the account at this address; the owner's own
    # tablet, at another, still gets to the code step.
    assert client.post(reverse("login"), form).status_code == 429
    elsewhere = client.post(reverse("login"), form, REMOTE_ADDR="10.4.0.2")
    assert elsewhere.status_code == 302
    assert elsewhere["Location"] == reverse("login_code")


def test_a_code_right_after_a_wrong_one_waits(client):
    """django-otp's own throttle: after each wrong code in a row, the app's codes wait 1, 2, 4...
    seconds; a code typed meanwhile is not even checked."""
    user = make_user()
    key, _ = two_factor_turn_on(user)
    client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    client.post(reverse("login_code"), {"code": "123456"})
    response = client.post(reverse("login_code"), {"code": app_code(key)})
    assert "Too many wrong codes in a row: wait 1 second" in response.content.decode()
    assert not signed_in(client)


def test_new_recovery_codes_and_turning_it_off_need_the_password(client):
    user = make_user()
    key, old_codes = two_factor_turn_on(user)
    log_in_with_code(client, user, key)
    refused = client.post(reverse("two_factor_codes"), {"password": "guess"})
    assert refused.status_code == 200
    assert "so your recovery codes are the same" in refused.content.decode()
    response = client.post(reverse("two_factor_codes"), {"password": PASSWORD})
    codes = re.findall(r"<li><code>([a-z2-7]+)</code></li>", response.content.decode())
    assert len(codes) == 10 and not set(codes) & set(old_codes)
    assert set(StaticToken.objects.values_list("token", flat=True)) == set(codes)

    refused = client.post(reverse("two_factor_disable"), {"password": "guess"})
    assert "two-factor sign-in is still on" in refused.content.decode()
    assert TOTPDevice.objects.filter(user=user).exists()
    response = client.post(reverse("two_factor_disable"), {"password": PASSWORD}, follow=True)
    assert "Two-factor sign-in is off" in response.content.decode()
    assert not TOTPDevice.objects.exists() and not StaticToken.objects.exists()
    client.logout()
    form = {"username": user.username, "password": PASSWORD}
    assert client.post(reverse("login"), form)["Location"] == reverse("home")


def test_two_factor_pages_need_a_member_and_the_right_method(client):
    for name in ("two_factor_enable", "two_factor_codes", "two_factor_disable"):
        assert client.post(reverse(name))["Location"].startswith(reverse("login"))
    client.force_login(make_user())
    assert client.get(reverse("two_factor_codes")).status_code == 405
    assert client.get(reverse("two_factor_disable")).status_code == 405


@pytest.fixture
def staff():
    return get_user_model().objects.create_superuser("boss", password=PASSWORD)


def test_the_admin_sends_staff_without_two_factor_to_turn_it_on(client, staff):
    client.force_login(staff)
    response = client.get(reverse("admin:index"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("two_factor_enable")
    assert "The admin asks for two-factor sign-in" in response.content.decode()


def test_the_admin_lets_staff_in_with_their_code_only(client, staff):
    key, _ = two_factor_turn_on(staff)
    client.force_login(staff)  # the password alone, as before two-factor sign-in was on
    response = client.get(reverse("admin:index"), follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("login"))
    assert "The admin asks for your code" in response.content.decode()
    client.logout()
    # Anyone else is sent to the app's log-in, which asks for the code, then back to the admin.
    response = client.get(reverse("admin:index"), follow=True)
    assert response.redirect_chain[-1][0] == f"{reverse('login')}?next=/admin/"
    form = {"username": staff.username, "password": PASSWORD, "next": "/admin/"}
    assert client.post(reverse("login"), form)["Location"] == reverse("login_code")
    response = client.post(reverse("login_code"), {"code": app_code(key)})
    assert response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_staff_see_a_members_devices_in_the_admin_but_never_their_secret(client, staff):
    member_key, _ = two_factor_turn_on(make_user())
    log_in_with_code(client, staff, two_factor_turn_on(staff)[0])
    device = TOTPDevice.objects.get(key=member_key)
    page = client.get(reverse("admin:otp_totp_totpdevice_change", args=[device.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert member_key not in body and b32encode(unhexlify(member_key)).decode() not in body


def test_a_wrong_code_is_not_kept_in_the_attempts_log(client):
    user = make_user()
    two_factor_turn_on(user)
    client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    client.post(reverse("login_code"), {"code": "917364"})
    attempt = AccessAttempt.objects.get()
    assert "917364" not in attempt.post_data
