"""A picture of a page or an SVG, taken with Debian's headless Chromium (never a downloaded one).

python -m tools.screenshot http://127.0.0.1:8000/tv/<token>/ docs/screenshots/tv.png --size 1280x720
python -m tools.screenshot static/icons/maskable.svg static/icons/icon-512.png --size 512x512
"""

import argparse
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright


def screenshot(source: str, out: Path, *, width: int, height: int, dark: bool = False) -> None:
    url = source if "://" in source else Path(source).resolve().as_uri()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium") or "/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu"],
        )
        page = browser.new_page(
            viewport={"width": width, "height": height},
            color_scheme="dark" if dark else "light",
        )
        page.goto(url)
        page.wait_for_load_state("networkidle")
        page.screenshot(path=out, omit_background=url.endswith(".svg"))
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="an address, or an SVG file")
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT in CSS pixels")
    parser.add_argument("--dark", action="store_true", help="the dark colour scheme")
    options = parser.parse_args()
    width, height = (int(side) for side in options.size.split("x"))
    screenshot(options.source, options.out, width=width, height=height, dark=options.dark)


if __name__ == "__main__":
    main()
