"""Every sentence of scorekeeper/ that a member can read is marked for the catalogue (gettext and
its kin), as tests/rules/test_messages.py asks of the rules engine: a refusal written as a bare
string would stay English on a Spanish page, and the pages' walk (test_spanish.py) meets only
the refusals its pages happen to show."""

import ast
import re
from pathlib import Path

SCOREKEEPER = Path(__file__).resolve().parents[2] / "scorekeeper"
MARKERS = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}
# What reads text without showing it to a member: logs, errors for developers, URLs.
NOT_SHOWN = {
    *("debug", "info", "warning", "error", "exception", "getLogger", "reverse"),
    *("Http404", "ValueError", "RuntimeError"),
}
# Words for operators, never for a member: the backups' restore command, the deploy checks, the
# management commands and the settings.
OPERATORS = {"services/backups.py", "system_checks.py", "settings.py"}
# Text that reads like a sentence and is none: keys and values no member reads as such.
NO_SENTENCE = {
    ("forms/checks.py", "input changed delay:250ms"),  # an htmx trigger
    ("models.py", "TV link of "),  # the admin's names of rows (__str__)
    ("models.py", "'s points left at contract  in "),
    ("models.py", "Recount of club "),
    ("services/imports.py", "already imported or refused, or the club is gone"),  # a log line
    ("services/ratings.py", "already recounted, or the club is gone"),  # a log line
    ("services/photos.py", "the store kept  under another name"),  # an OSError, logged
}
SENTENCE = re.compile(r"[A-Za-z]+ [a-z]+ [a-z]+")


def _unmarked(path: Path, root: Path = SCOREKEEPER) -> set[tuple[str, str]]:
    """(file, text) of each literal or f-string of three words or more outside a marker, a log
    call and a docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    passed = set()
    for node in ast.walk(tree):
        name = isinstance(node, ast.Call) and (
            getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        )
        if name in MARKERS or name in NOT_SHOWN:
            passed.update(id(inner) for inner in ast.walk(node))
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            passed.add(id(body[0].value))  # a docstring
    in_fstring = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in passed or id(node) in in_fstring:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if SENTENCE.search(text) and "{%" not in text and "<" not in text:
            found.add((path.relative_to(root).as_posix(), text))
    return found


def test_every_sentence_a_member_reads_is_marked_for_the_catalogue():
    found = set()
    for path in sorted(SCOREKEEPER.rglob("*.py")):
        relative = path.relative_to(SCOREKEEPER).as_posix()
        if relative in OPERATORS or relative.startswith(("migrations/", "management/")):
            continue
        found |= _unmarked(path)
    left = sorted(found - NO_SENTENCE)
    assert left == [], "\n".join(map(str, left))


def test_the_scan_finds_a_bare_refusal(tmp_path):
    module = tmp_path / "refusal.py"
    module.write_text(
        'def refuse(season):\n    raise ValueError(_("Marked, so fine."))\n'
        'def bare(season):\n    raise ActionRefused(f"{season} has already ended.")\n'
    )
    assert _unmarked(module, root=tmp_path) == {("refusal.py", " has already ended.")}
