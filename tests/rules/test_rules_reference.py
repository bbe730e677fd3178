"""docs/rules.md, the players' rules reference, against the engine: its table of house rules
lists every field of HouseRules once, with HouseRules()'s default and rules/settings.py's
bounds, and nothing that is no longer a setting."""

import json
import re
from dataclasses import fields
from pathlib import Path

import pytest

from rules import MAX_CONTRACTS, MAX_MELDS_PER_CONTRACT, MAX_POINTS, SETTINGS, VARIANTS, HouseRules

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
HEADER = "| setting | default | allowed | what it does |"
BOUNDS = {setting.name: setting for setting in SETTINGS}


def house_rules_rows(text: str) -> list[list[str]]:
    """The cells of each row of the house-rules table, its header and rule line left out."""
    lines = text.splitlines()
    start = lines.index(HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows


def code(cell: str) -> str:
    """The text of a cell that is one code span."""
    match = re.fullmatch(r"`([^`]+)`", cell)
    assert match, f"{cell!r} is not one `code` span"
    return match.group(1)


@pytest.fixture(scope="module")
def documented() -> dict[str, list[str]]:
    rows = house_rules_rows(REFERENCE.read_text(encoding="utf-8"))
    assert all(len(row) == 4 for row in rows), [row for row in rows if len(row) != 4]
    names = [code(row[0]) for row in rows]
    assert len(names) == len(set(names)), "a setting is listed twice"
    return {name: row[1:] for name, row in zip(names, rows, strict=True)}


def test_every_setting_is_documented_and_nothing_else(documented):
    settings = {field.name for field in fields(HouseRules)}
    assert sorted(settings - set(documented)) == [], "settings missing from docs/rules.md"
    assert sorted(set(documented) - settings) == [], "docs/rules.md lists settings that are gone"


def row_of(documented: dict[str, list[str]], name: str) -> list[str]:
    assert name in documented, f"{name} is not in docs/rules.md"
    return documented[name]


@pytest.mark.parametrize("name", [field.name for field in fields(HouseRules)])
def test_each_default_is_written_as_house_rules_has_it(documented, name):
    default, _, _ = row_of(documented, name)
    assert json.loads(code(default)) == HouseRules().to_dict()[name]


@pytest.mark.parametrize("name", [field.name for field in fields(HouseRules)])
def test_each_allowed_range_is_the_engines(documented, name):
    _, allowed, what = row_of(documented, name)
    assert what, f"{name} does not say what it does"
    setting = BOUNDS[name]
    match setting.kind:
        case "int" | "int_list":
            assert f"{setting.minimum} to {setting.maximum}" in allowed
        case "bool":
            assert allowed == "on (`true`) or off (`false`)"
        case "choice":
            named = re.findall(r"`([^`]+)`", allowed)
            assert named == [choice for choice, _ in setting.choices]
        case "contracts":
            assert f"1 to {MAX_CONTRACTS} contracts" in allowed
            assert f"1 to {MAX_MELDS_PER_CONTRACT} melds" in allowed
        case "points":
            assert f"0 to {MAX_POINTS}" in allowed
        case kind:
            pytest.fail(f"docs/rules.md has no check for settings of kind {kind!r}")


def test_the_reference_points_nowhere_outside_the_repository():
    text = REFERENCE.read_text(encoding="utf-8")
    assert "shared/" not in text and "](../../" not in text


VARIANTS_HEADER = "| variant | follows | differs from the seed's Shanghai in |"


def test_the_table_of_variants_names_what_each_changes():
    """docs/rules.md's table of named variants: a row for each of rules.VARIANTS, in order, its
    link the variant's source, and the settings it names (in code) the ones it changes."""
    lines = REFERENCE.read_text(encoding="utf-8").splitlines()
    start = lines.index(VARIANTS_HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    assert [row[0] for row in rows] == [variant.name for variant in VARIANTS]
    for variant, (_, follows, changes) in zip(VARIANTS, rows, strict=True):
        assert f"]({variant.source_url})" in follows, variant.key
        named = re.findall(r"`([a-z_]+)`", changes)
        assert sorted(set(named)) == sorted(variant.changes), variant.key
