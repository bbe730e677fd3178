"""Pictures taken with Debian's headless Chromium (never a downloaded one).

With no arguments, the README's screenshots, from a throwaway database holding the browser tests'
tables (tests.factories.make_tables) with short names; else one picture of an address or an SVG:

    .venv/bin/python -m tools.screenshots            # writes docs/screenshots/*.png
    .venv/bin/python -m tools.screenshots http://127.0.0.1:8000/tv/<token>/ docs/screenshots/tv.png
    .venv/bin/python -m tools.screenshots static/icons/maskable.svg static/icons/icon-512.png \
        --size 512x512
"""

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
# (file, page type, viewport, colour scheme)
SHOTS = [
    ("round-light.png", "round screen", TABLET, "light"),
    ("round-dark.png", "round screen", TABLET, "dark"),
    ("round-phone.png", "round screen", PHONE, "light"),
    ("score-entry.png", "score entry", TABLET, "light"),
    ("score-entry-phone.png", "score entry", PHONE, "dark"),
    ("checker.png", "table checker", TABLET, "light"),
    ("home-light.png", "home", TABLET, "light"),
    ("home-dark.png", "home", TABLET, "dark"),
]


def chromium(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(
        executable_path=shutil.which("chromium-headless-shell") or shutil.which("chromium"),
        args=["--no-sandbox", "--disable-gpu"],
    )


def screenshot(source: str, out: Path, *, width: int, height: int, dark: bool = False) -> None:
    """One picture of an address, or of an SVG file (its transparent background kept)."""
    url = source if "://" in source else Path(source).resolve().as_uri()
    with sync_playwright() as playwright:
        browser = chromium(playwright)
        page = browser.new_page(
            viewport={"width": width, "height": height},
            color_scheme="dark" if dark else "light",
        )
        page.goto(url)
        page.wait_for_load_state("networkidle")
        page.screenshot(path=out, omit_background=url.endswith(".svg"))
        browser.close()


def readme_screenshots() -> None:
    """Every picture of SHOTS, of a throwaway database's tables, seen by their member."""
    data = tempfile.mkdtemp(prefix="screenshots-")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        DJANGO_DEBUG="true",
        DATABASE_URL=f"sqlite:///{data}/db.sqlite3",
        DJANGO_MEDIA_ROOT=f"{data}/media",
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.testcases import LiveServerThread, _StaticFilesHandler

    from tests.factories import make_tables, make_user

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    user = make_user("ann")
    pages = make_tables(user, club="Thursday club", players=["Ann", "Ben", "Cleo", "Dev", "Eve"])
    server = LiveServerThread("localhost", _StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://localhost:{server.port}"
    try:
        with sync_playwright() as playwright:
            browser = chromium(playwright)
            login = browser.new_context(base_url=base)
            page = login.new_page()
            page.goto("/accounts/login/")
            page.get_by_label("Username").fill("ann")
            page.get_by_label("Password").fill("a-long-test-password")
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url("/")
            state = login.storage_state()
            login.close()
            for name, kind, viewport, scheme in SHOTS:
                context = browser.new_context(
                    base_url=base, viewport=viewport, color_scheme=scheme, storage_state=state
                )
                page = context.new_page()
                page.goto(pages[kind])
                if kind == "table checker":
                    page.get_by_label("Cards", exact=True).fill("8H 8S JK | QC QD QS")
                    page.get_by_label("Can I go down?").check()
                    page.get_by_role("button", name="Check", exact=True).click()
                    page.locator("#answer .verdict").wait_for()
                    page.mouse.move(0, 0)
                    page.evaluate("document.getElementById('answer').scrollIntoView()")
                page.screenshot(path=OUT / name)
                print(OUT / name)
                context.close()
            browser.close()
    finally:
        server.terminate()
        shutil.rmtree(data, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", help="an address, or an SVG file")
    parser.add_argument("out", nargs="?", type=Path, help="the PNG to write")
    parser.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT in CSS pixels")
    parser.add_argument("--dark", action="store_true", help="the dark colour scheme")
    options = parser.parse_args()
    if options.source is None:
        readme_screenshots()
        return
    if options.out is None:
        parser.error("give the PNG to write after the address or SVG")
    width, height = (int(side) for side in options.size.split("x"))
    screenshot(options.source, options.out, width=width, height=height, dark=options.dark)


if __name__ == "__main__":
    main()
