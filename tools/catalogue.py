"""The Spanish catalogue, locale/es/LC_MESSAGES/django.po, and its compiled django.mo (committed,
so the app needs nothing but Python to speak Spanish).

`python -m tools.catalogue` checks, as .ci/run does, that `makemessages` leaves the catalogue as
it is (its POT-Creation-Date aside: every run writes the moment), that no entry is fuzzy or
untranslated, and that the committed .mo is the .po compiled. `python -m tools.catalogue --write`
brings the catalogue up to date with the code and compiles it (new entries then wait for their
Spanish, which the check asks for). Both need GNU gettext's tools (Debian's `gettext`), as
Django's makemessages does.
"""

import argparse
import difflib
import gettext
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"
COMPILED = CATALOGUE.with_suffix(".mo")
# The places of an entry by file only: a line moved elsewhere in a file changes no catalogue.
# What no member reads is not scanned (hidden folders such as .venv are left out by Django).
MAKEMESSAGES = [
    *("makemessages", "--locale", "es", "--add-location", "file", "--no-obsolete"),
    *("--ignore", "tests/*", "--ignore", "tools/*", "--ignore", "docs/*", "--ignore", "data/*"),
    *("--ignore", "staticfiles/*", "--ignore", "static/vendor/*", "--ignore", "node_modules/*"),
]


def run(*command: str, capture: bool = False) -> str:
    # The settings refuse to start without a secret key unless on a laptop's DEBUG.
    environment = {"DJANGO_DEBUG": "true", **os.environ}
    done = subprocess.run(
        command, cwd=ROOT, env=environment, check=True, text=True, capture_output=capture
    )
    return done.stdout if capture else ""


def makemessages() -> None:
    run(sys.executable, "manage.py", *MAKEMESSAGES, "--verbosity", "0")


def compile_to(target: Path) -> None:
    run("msgfmt", "--check-format", "--output-file", str(target), str(CATALOGUE))


def without_date(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith('"POT-Creation-Date:')]


def entries(attribute_option: str) -> str:
    """The catalogue's entries that are fuzzy (`--only-fuzzy`) or untranslated (`--untranslated`),
    as msgattrib writes them (nothing when there are none)."""
    return run("msgattrib", attribute_option, "--no-wrap", str(CATALOGUE), capture=True)


def problems() -> list[str]:
    found = []
    before = CATALOGUE.read_text()
    try:
        makemessages()
        after = CATALOGUE.read_text()
    finally:
        CATALOGUE.write_text(before)  # a check changes nothing
    if without_date(before) != without_date(after):
        diff = difflib.unified_diff(
            without_date(before), without_date(after), "committed", "makemessages", lineterm=""
        )
        found.append(
            "The catalogue is not up to date with the code (python -m tools.catalogue --write, "
            "then translate the new entries):\n" + "\n".join(diff)
        )
    for option, what in [("--only-fuzzy", "fuzzy"), ("--untranslated", "untranslated")]:
        if listed := entries(option):
            found.append(f"Entries {what} in {CATALOGUE.relative_to(ROOT)}:\n{listed}")
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "django.mo"
        compile_to(fresh)
        with fresh.open("rb") as new, COMPILED.open("rb") as committed:
            if gettext.GNUTranslations(new)._catalog != gettext.GNUTranslations(committed)._catalog:
                found.append(f"{COMPILED.relative_to(ROOT)} is not the .po compiled (--write).")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update the .po and compile the .mo")
    if parser.parse_args().write:
        CATALOGUE.parent.mkdir(parents=True, exist_ok=True)
        makemessages()
        compile_to(COMPILED)
        return 0
    found = problems()
    for problem in found:
        print(problem, file=sys.stderr)
    if not found:
        print("The Spanish catalogue is up to date, complete and compiled.")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
