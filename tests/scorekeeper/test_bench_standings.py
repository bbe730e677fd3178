import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# slow: runs the bench.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


PAGES = ("standings", "player", "club", "new table")
QUERIES = {
    "standings": 7,  # with whether a recount is waiting
    "player": 9,  # head to head and points left apart
    "club": 13,  # likewise
    "new table": 9,  # the profiles read once for the menu and its known games
}


def _bench(*arguments: str) -> list[str]:
    # Its own process: the command points Django at a throw-away SQLite file.
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env["DJANGO_DEBUG"] = "true"
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_standings", *arguments, "--runs", "2"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout.strip().splitlines()


def test_bench_standings_prints_a_table_and_one_json_line_last():
    lines = _bench("--games", "3")
    assert lines[0].split() == ["page", "median", "ms", "queries"]
    figures = json.loads(lines[-1])
    assert figures["games"] == 3
    assert {page: figures[page]["queries"] for page in PAGES} == QUERIES
    assert all(figures[page]["median_ms"] > 0 for page in PAGES)


def test_bench_standings_over_several_sizes_reports_each():
    lines = _bench("--sizes", "2", "4")
    assert lines[0].split() == ["page", "median", "ms", "queries", "tables"]
    assert [line.split()[-1] for line in lines[1:3]] == ["2", "4"]  # standings, each size
    figures = json.loads(lines[-1])
    assert [size["games"] for size in figures["sizes"]] == [2, 4]
    for size in figures["sizes"]:
        assert {page: size[page]["queries"] for page in PAGES} == QUERIES
