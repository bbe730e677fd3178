"""The command line: python -m rules."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.cli import main

# slow: runs the bench.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("argv", "code", "output"),
    [
        (["check", "7H 8H 9H JK"], 0, "7♥ 8♥ 9♥ JK=10♥"),
        (["check", "AH 2H 3H 4H"], 1, "aces are high only"),
        (["check", "AH 2H 3H", "--ace", "high_or_low", "--min-run", "3"], 0, "A♥ 2♥ 3♥"),
        (["check", "8H 8S JK JK", "--jokers-per-meld", "2"], 0, "Legal book"),
        (["down", "3", "3S 4S 5S 6S | 9D 10D JD QD"], 0, "9♦ 10♦ J♦ Q♦"),
        (["down", "3", "6H 7H 8H 9H 10H JH QH KH"], 1, "consecutive runs of hearts"),
        (["layoff", "9H", "5H 6H 7H 8H"], 0, "5♥ 6♥ 7♥ 8♥ 9♥"),
        (["layoff", "7H", "5H 6H JK=7H 8H"], 1, "joker exchange"),
        (["layoff", "7H", "5H 6H JK=7H 8H", "--joker-swap", "shift_to_end"], 0, "JK=9♥"),
        (["score", "KH 7S JK"], 0, "65 points"),
        (["score", "K K 7 JK 10 A"], 0, "105 points"),
        (["score", "9C 9C 9C"], 1, "three 9C"),
        (["hint", "2", "8H 8S 8D 4C 5C 6C JK KS 2D 9H 3H"], 0, "kept  K♠ 2♦ 9♥ 3♥"),
        (["hint", "1", "8H 8S 4C"], 1, "It holds no book or run."),
        (["summary", "--same-suit-runs-must-be-separated"], 0, "need a gap"),
        (
            ["summary", "--contracts", "2b,3r!", "--cards-dealt", "11,11"],
            0,
            "Three runs, no discard",
        ),
    ],
)
def test_commands(capsys, argv, code, output):
    assert main(argv) == code
    assert output in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "1H 2H"], '"1H" is not a card: ranks are 2-10, J, Q, K, A'),
        (["check", "7H", "--min-run", "2"], "Shortest run must be at least 3"),
        (["down", "9", "8H 8S 8D"], ""),
    ],
)
def test_bad_input_exits_2(capsys, argv, message):
    code = main(argv)
    if argv[0] == "down":
        assert code == 1  # a contract that does not exist is a refusing verdict
        return
    assert code == 2
    assert message in capsys.readouterr().err


def test_argparse_errors_exit_2(capsys):
    assert main(["check", "7H", "--ace", "sideways"]) == 2
    assert main([]) == 2
    assert main(["summary", "--contracts", "2x"]) == 2


def test_json_output(capsys):
    assert main(["down", "2", "8H 8S JK 3C 4C 5C 6C", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is True
    assert result["melds"][0] == {"kind": "book", "cards": ["8S", "8H", "JK=8"]}
    assert main(["check", "1H", "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "ok": False,
        "error": '"1H" is not a card: ranks are 2-10, J, Q, K, A',
    }


def test_python_dash_m_rules():
    result = subprocess.run(
        [sys.executable, "-m", "rules", "check", "7H 8H 9H JK", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["ok"] is True


def test_benchmark_runs_and_ends_with_json(capsys):
    from rules import bench

    assert bench.main(["--samples", "30", "--part", "seed"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert set(figures) == {
        "check_meld",
        "check_going_down",
        "find_going_down",
        "check_going_down_largest",
        "find_going_down_largest",
    }
    assert figures["check_going_down"]["calls"] == 30
    # Every contract's largest hand: 5 random ones (0 to 4 jokers) and the slow shapes.
    largest = figures["find_going_down_largest"]
    assert largest["calls"] >= 7 * (5 + 5)
    assert largest["worst_input"].endswith(")")


def test_benchmark_at_the_bounds_times_every_question(capsys):
    from rules import bench

    assert bench.main(["--samples", "30", "--part", "bounds", "--contract", "7"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(figures) == {
        f"bounds_{kind}" for kind in ("meld", "down", "down_grouped", "hint", "layoff", "shanghai")
    }
    for item in figures.values():
        assert item["calls"] and item["p95_ms"] <= item["worst_ms"]
    # The worst shapes at the bounds give up on contract 7 rather than take seconds.
    assert figures["bounds_hint"]["gave_up"] > 0
