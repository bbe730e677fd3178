"""The app's language (settings.LANGUAGES): the browser's by default, the one a member chose on
the account page once signed in (in every browser they log in to), and the e-mails sent to a
member in theirs."""

import json
import re
from pathlib import Path

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import AccountLanguage
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def choose(client, language: str):
    return client.post(reverse("account_language"), {"language": language})


def test_a_visitor_reads_the_browsers_language(client):
    spanish = client.get(reverse("login"), headers={"accept-language": "es-ES,es;q=0.9"})
    assert spanish["Content-Language"] == "es"
    assert '<html lang="es"' in spanish.content.decode()
    english = client.get(reverse("login"), headers={"accept-language": "de,en;q=0.5"})
    assert english["Content-Language"] == "en"


def test_a_member_without_a_choice_reads_the_browsers_language(client, user):
    response = client.get(reverse("account"), headers={"accept-language": "es"})
    assert response["Content-Language"] == "es"
    assert not AccountLanguage.objects.exists()


def test_a_member_chooses_spanish_over_the_browsers_english(client, user):
    response = choose(client, "es")
    assert response.status_code == 302
    assert response["Location"] == reverse("account")
    assert AccountLanguage.objects.get(user=user).language == "es"
    page = client.get(reverse("account"), headers={"accept-language": "en"})
    assert page["Content-Language"] == "es"
    assert "Idioma guardado." in page.content.decode()
    # The choice is the account's: a browser it logs in to later reads Spanish too.
    other = Client(headers={"accept-language": "en"})
    assert other.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert other.get(reverse("account"))["Content-Language"] == "es"


def test_the_account_page_shows_the_choice(client, user):
    choose(client, "es")
    page = client.get(reverse("account")).content.decode()
    assert '<option value="es" selected>Español</option>' in page


def test_back_to_the_browsers_language(client, user):
    choose(client, "es")
    choose(client, "")
    assert not AccountLanguage.objects.exists()
    page = client.get(reverse("account"), headers={"accept-language": "en"})
    assert page["Content-Language"] == "en"


def test_a_language_the_app_does_not_speak_is_refused(client, user):
    assert choose(client, "fr").status_code == 302
    assert not AccountLanguage.objects.exists()


def test_the_choice_is_a_signed_in_post(client):
    assert client.get(reverse("account_language")).status_code == 405
    response = choose(client, "es")
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not AccountLanguage.objects.exists()


def test_a_signed_out_visitor_reads_the_browsers_language_again(client, user):
    choose(client, "es")
    client.post(reverse("logout"))
    page = client.get(reverse("login"), headers={"accept-language": "en"})
    assert page["Content-Language"] == "en"


def test_a_notice_is_mailed_in_the_members_language(client, user):
    user.email = "ann@example.org"
    user.save(update_fields=["email"])
    services.account_language_set(user=user, language="es")
    # Sent from an English page: the member's choice wins.
    services.account_notice_send(user=user, change="password")
    (notice,) = mail.outbox
    assert "contraseña" in notice.subject
    assert "contraseña" in notice.body


def test_a_password_reset_is_mailed_in_the_members_language(client):
    user = make_user()
    user.email = "ann@example.org"
    user.save(update_fields=["email"])
    services.account_language_set(user=user, language="es")
    client.post(
        reverse("password_reset"), {"email": "ann@example.org"}, headers={"accept-language": "en"}
    )
    (reset,) = mail.outbox
    assert "contraseña" in reset.subject
    assert "Elige una contraseña nueva" in reset.body


def script_keys() -> set[str]:
    """The English the scripts (static/js) look up: the first argument of each `translated`
    call, the singular of each `translatedCount`, when written out in the call."""
    found = set()
    for script in sorted((Path(__file__).resolve().parents[2] / "static" / "js").glob("*.js")):
        text = script.read_text()
        found |= set(re.findall(r'translated\(\s*"((?:[^"\\]|\\.)+)"\s*[,)]', text))
        found |= set(re.findall(r'translatedCount\(\s*[^,]+,\s*"((?:[^"\\]|\\.)+)"', text))
    return found


def test_the_pages_carry_every_word_their_scripts_say_in_spanish(client):
    spanish = json.loads(script_words_json(client, "es"))
    assert script_keys() <= spanish.keys()
    assert spanish["Take out {card}"] == "Quitar {card}"
    assert spanish["Sending your tap…"] == ["Enviando tu toque…", "Enviando tus {count} toques…"]


def test_an_english_page_carries_no_words_for_its_scripts(client):
    # The scripts say their own English.
    assert json.loads(script_words_json(client, "en")) == {}


def script_words_json(client, language: str) -> str:
    page = client.get(reverse("login"), headers={"accept-language": language}).content.decode()
    return re.search(r'<script id="script-words" type="application/json">(.*?)</script>', page)[1]
