"""The app installs to a home screen: a web app manifest served with its own type, its icons."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from PIL import Image

# slow: static files collected.
pytestmark = pytest.mark.slow

STATIC = Path(settings.BASE_DIR) / "static"
MANIFEST = json.loads((STATIC / "manifest.webmanifest").read_text())


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_the_theme_colour(client):
    page = client.get(reverse("login")).content.decode()
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    assert f'<meta name="theme-color" content="{MANIFEST["theme_color"]}">' in page


def test_the_manifest_opens_the_app_standalone_from_its_home_page():
    assert MANIFEST["display"] == "standalone"
    assert MANIFEST["start_url"] == MANIFEST["scope"] == "/"
    assert MANIFEST["name"] == "Shanghai Scorekeeper"


@pytest.mark.parametrize("icon", MANIFEST["icons"], ids=lambda icon: icon["src"] + icon["purpose"])
def test_each_icon_exists_at_the_size_it_claims(icon):
    path = STATIC / icon["src"]
    assert path.exists()
    if icon["type"] == "image/png":
        width, height = (int(side) for side in icon["sizes"].split("x"))
        assert Image.open(path).size == (width, height)
    else:
        assert path.read_text().startswith("<svg")


def test_maskable_icons_at_192_and_512_fill_their_square():
    maskable = [icon for icon in MANIFEST["icons"] if icon["purpose"] == "maskable"]
    assert sorted(icon["sizes"] for icon in maskable) == ["192x192", "512x512"]
    for icon in maskable:
        image = Image.open(STATIC / icon["src"]).convert("RGB")
        # Full bleed: a launcher may cut any shape out of it, the corners included.
        assert image.getpixel((0, 0)) == (0, 137, 90)
        assert image.getpixel((image.width // 2, image.height // 2)) == (255, 255, 255)


@pytest.mark.django_db
def test_whitenoise_serves_the_manifest_as_a_manifest(collected_static):
    hashed = next(collected_static.glob("manifest.*.webmanifest"))
    response = Client().get(f"/static/{hashed.name}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    # Its icons are named relative to it, and served under those names too.
    assert Client().get("/static/icons/icon-512.png")["Content-Type"] == "image/png"
