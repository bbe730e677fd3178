"""The table's scripts speak the page's language: a member who chose Spanish reads the words the
scripts write (templatetags/words.py) in Spanish too."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scorekeeper import services
from tests.factories import make_club, make_player

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_first_dealer_menu_speaks_the_members_language(tablet, log_in):
    page = tablet
    club = make_club()
    for name in ["Ann", "Ben", "Cleo"]:
        make_player(club, name)
    user = club.memberships.get().user
    services.account_language_set(user=user, language="es")
    log_in(page, user, at=reverse("game_new", args=[club.pk]))
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.get_by_label("Asiento 1").select_option(label="Cleo")
    dealer = page.get_by_label("Primero en repartir")
    expect(dealer.locator("option").nth(0)).to_have_text("Cleo")
    expect(dealer.locator("option").nth(2)).to_have_text("Asiento 3 (nadie aún)")
