"""Django first: every query goes through the ORM but the few statements it has no words for,
which live in scorekeeper/database.py, each with its reason (docs/architecture.md)."""

import re
from pathlib import Path

SCOREKEEPER = Path(__file__).resolve().parents[2] / "scorekeeper"
RAW_SQL = re.compile(r"\.cursor\(|\.raw\(|RawSQL|\.extra\(")


def test_raw_sql_is_written_only_in_the_database_module():
    found = [
        f"{path.relative_to(SCOREKEEPER)}:{number}: {line.strip()}"
        for path in sorted(SCOREKEEPER.rglob("*.py"))
        if "migrations" not in path.parts and path.name != "database.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if RAW_SQL.search(line)
    ]
    assert found == []
