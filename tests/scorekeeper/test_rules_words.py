"""The rules engine's words in the language of the request (scorekeeper/rules_words.py), with the
Spanish of the app's catalogue (locale/es/LC_MESSAGES/django.po)."""

import ast
import gettext
from pathlib import Path

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

import rules
from scorekeeper.models import TableMeld
from scorekeeper.rules_words import translated, translated_reasons
from tests.factories import seats, text_of

ROOT = Path(__file__).resolve().parents[2]
COMPILED = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.mo"


@pytest.fixture
def spanish():
    with translation.override("es"):
        yield


def test_a_refusal_through_the_boundary_is_in_spanish(spanish):
    verdict = rules.check_meld(rules.parse_cards("7H 8H 10H JH"), rules.HouseRules())
    assert translated_reasons(verdict.reasons) == (
        "7H 8H 10H JH no es una escalera: necesita 9H, y no hay ningún comodín para el hueco."
    )
    refusal = rules.may_i_refusal(
        rules.HouseRules(), player="Ana", went_down=False, used=3, limit=3
    )
    assert translated(refusal) == (
        "A Ana no le queda ningún ¿Puedo? en esta ronda: el límite es 3 por ronda."
    )


@pytest.mark.parametrize(("points", "words"), [(1, "vale 1 punto con"), (3, "vale 3 puntos con")])
def test_a_count_in_the_words_takes_the_spanish_plural(spanish, points, words):
    refusal = rules.points_refusal(player="Ana", points=points, most_cards=11)
    assert words in translated(refusal)


def test_messages_within_messages_are_translated_too(spanish):
    name = rules.HouseRules().contract(2).name
    assert str(name) == "One book, one run"
    assert translated(name) == "Un trío, una escalera"
    with pytest.raises(rules.CardError) as refused:
        rules.parse_cards("JK=ZZ")
    assert translated(refused.value.args[0]) == (
        "«JK=ZZ» no es una carta: en la carta del comodín, «ZZ» no es una carta: "
        "los valores son 2-10, J, Q, K, A"
    )


def test_english_stays_as_the_engine_says_it_and_other_text_passes_through():
    verdict = rules.check_meld(rules.parse_cards("7H 8H"), rules.HouseRules())
    with translation.override("en"):
        assert translated(verdict.reasons[0]) == str(verdict.reasons[0])
    with translation.override("es"):
        assert translated("Not a rules message") == "Not a rules message"


def test_the_template_filter_says_a_contract_in_spanish(spanish):
    page = Template("{% load rules_words %}{{ name|translated }}")
    assert page.render(Context({"name": rules.HouseRules().contract(7).name})) == (
        "Tres escaleras, sin descarte"
    )


@pytest.mark.django_db
def test_the_checker_answers_in_spanish(client, member):
    response = client.post(
        reverse("checker"),
        {"question": "meld", "cards": "A♥ 2♥ 3♥ 4♥"},
        headers={"accept-language": "es"},
    )
    assert "AH 2H 3H 4H no es una escalera: los ases solo van arriba." in text_of(response)


@pytest.mark.django_db
def test_an_illegal_going_down_is_refused_in_spanish(client, member, game):
    response = client.post(
        reverse("melds_record", args=[game.pk]),
        {"version": game.version, "seat": seats(game)[0].pk, "melds": "8H 8S 8D | 9H 10H JH QH"},
        headers={"accept-language": "es"},
    )
    assert response.status_code == 200
    assert (
        "Para el contrato 1 (Dos tríos) hacen falta 2 tríos; estas combinaciones son "
        "1 trío y 1 escalera." in text_of(response)
    )
    assert not TableMeld.objects.exists()


def _marked_msgids() -> set[str]:
    """Every msgid marked in rules/ with _, ngettext_lazy (its singular, which keys its plural
    forms in a catalogue) or gettext_noop."""
    markers = {"_", "ngettext_lazy", "gettext_noop"}
    return {
        ast.literal_eval(node.args[0])
        for path in (ROOT / "rules").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in markers
    }


def _catalogue(compiled: Path) -> dict:
    with compiled.open("rb") as file:
        return gettext.GNUTranslations(file)._catalog


def test_every_msgid_of_the_engine_has_its_spanish():
    catalogue = _catalogue(COMPILED)
    spanish = {
        key[0] if isinstance(key, tuple) else key for key, words in catalogue.items() if words
    }
    assert sorted(_marked_msgids() - spanish) == []
