"""Template tags (scorekeeper/templatetags/)."""

import pytest

import rules

pytestmark = pytest.mark.django_db


def test_card_faces_show_each_card_with_its_suit_symbol_and_a_jokers_card():
    from django.template import Context, Template

    faces = Template("{% load cards %}{% card_faces cards %}").render(
        Context({"cards": rules.parse_ranks("10H QS JK=9D 7")})
    )
    assert '<span class="card-face suit-H" title="10H">10♥</span>' in faces
    assert '<span class="card-face joker" title="JK=9D">JK=9♦</span>' in faces
    assert '<span class="card-face suit-none" title="7">7</span>' in faces
