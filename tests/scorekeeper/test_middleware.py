"""The app's own middleware: the health check by IP address, and the headers every page needs."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.models import Photo
from tests.factories import run_tasks

PHOTO = Path(__file__).resolve().parents[1] / "recognition" / "photos" / "phone_010.jpg"


@pytest.mark.django_db
def test_the_health_check_answers_when_called_by_ip_address(client):
    response = client.get("/healthz", headers={"host": "10.1.2.3:8000"})
    assert response.status_code == 200
    assert response.json() == {"database": "ok"}


@pytest.mark.django_db
def test_other_pages_called_by_an_unknown_host_are_refused(client):
    response = client.get(reverse("login"), headers={"host": "10.1.2.3:8000"})
    assert response.status_code == 400
    assert "could not be understood" in response.content.decode()


SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
}


def assert_security_headers(response, *, page=True):
    for header, value in SECURITY_HEADERS.items():
        assert response.headers[header] == value, header
    assert "camera=(self)" in response.headers["Permissions-Policy"]
    assert "microphone=()" in response.headers["Permissions-Policy"]
    if page:
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "partial"])
def test_a_members_page_and_its_partial_are_private_and_vary_on_htmx(client, game, member, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.get(reverse("game", args=[game.pk]), headers=headers)
    assert response.status_code == 200
    assert ("<html" in response.content.decode()) is not htmx
    assert "HX-Request" in response.headers["Vary"]
    assert "private" in response.headers["Cache-Control"]
    assert_security_headers(response)


@pytest.mark.django_db
def test_a_page_for_anyone_carries_the_security_headers(client):
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    assert_security_headers(response)


@pytest.mark.django_db
def test_a_photo_is_private_and_carries_the_security_headers(client, game, member):
    photo = PHOTO.read_bytes()
    client.post(
        reverse("table_photo", args=[game.pk]),
        {"photo": SimpleUploadedFile("meld.jpg", photo, content_type="image/jpeg")},
    )
    run_tasks()
    response = client.get(reverse("photo", args=[Photo.objects.get().pk]))
    assert response.status_code == 200
    assert "private" in response.headers["Cache-Control"]
    assert_security_headers(response, page=False)


@pytest.mark.django_db
def test_a_static_file_carries_the_security_headers(client, settings, tmp_path):
    (tmp_path / "probe.txt").write_text("static")
    settings.STATICFILES_DIRS = [tmp_path]
    settings.WHITENOISE_USE_FINDERS = True
    response = Client().get("/static/probe.txt")
    assert response.status_code == 200
    assert_security_headers(response, page=False)


@pytest.mark.django_db
def test_an_htmx_tap_after_the_session_expired_sends_the_browser_to_log_in(client, game, member):
    client.logout()
    response = client.post(
        reverse("may_i", args=[game.pk]), {"version": 0}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response.headers["HX-Redirect"].startswith(reverse("login"))
    game.refresh_from_db()
    assert game.version == 0


@pytest.mark.django_db
def test_a_plain_request_after_the_session_expired_is_redirected_as_usual(client, game, member):
    client.logout()
    response = client.post(reverse("may_i", args=[game.pk]), {"version": 0})
    assert response.status_code == 302
    assert "HX-Redirect" not in response.headers


@pytest.mark.django_db
def test_a_body_larger_than_any_upload_is_refused_before_it_is_read(client, game, member, settings):
    url = reverse("table_photo", args=[game.pk])
    too_large = str(settings.REQUEST_MAX_BYTES + 1)
    response = client.generic("POST", url, b"x", "image/jpeg", CONTENT_LENGTH=too_large)
    assert response.status_code == 413
    assert "That upload is too large" in response.content.decode()
    assert f"up to {settings.REQUEST_MAX_BYTES // (1024 * 1024)} MB" in response.content.decode()
    assert not Photo.objects.exists()
    # The largest photo accepted, with its form, is let through.
    assert settings.REQUEST_MAX_BYTES > settings.PHOTO_MAX_BYTES
    photo = SimpleUploadedFile("meld.jpg", PHOTO.read_bytes(), content_type="image/jpeg")
    assert client.post(url, {"photo": photo}).status_code == 200
