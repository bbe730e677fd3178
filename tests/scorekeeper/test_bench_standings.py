import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# slow: runs the bench.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_bench_standings_prints_a_table_and_one_json_line_last():
    # Its own process: the command points Django at a throw-away SQLite file.
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env["DJANGO_DEBUG"] = "true"
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_standings", "--games", "3", "--runs", "2"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = done.stdout.strip().splitlines()
    assert lines[0].split() == ["page", "median", "ms", "queries"]
    figures = json.loads(lines[-1])
    assert figures["games"] == 3
    pages = ("standings", "player", "club", "new table")
    assert {page: figures[page]["queries"] for page in pages} == {
        "standings": 7,  # with whether a recount is waiting
        "player": 9,  # head to head and points left apart
        "club": 13,  # likewise
        "new table": 12,
    }
    assert all(figures[page]["median_ms"] > 0 for page in pages)
