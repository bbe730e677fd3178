"""Command line for the rules engine: python -m rules check|down|layoff|score|hint|summary."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import fields

from .cards import CardError, format_cards, parse_cards, parse_melds, parse_ranks
from .contracts import Contract, RulesError
from .going_down import check_going_down, find_going_down
from .house_rules import HouseRules
from .lay_off import check_lay_off
from .melds import Verdict, check_meld
from .scoring import hand_problems, penalty_points
from .settings import SETTINGS
from .summary import rules_summary

LEGAL, ILLEGAL, BAD_INPUT, TOO_MANY = 0, 1, 2, 3


def _int_list(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.replace(",", " ").split())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of whole numbers") from None


def _points(text: str) -> dict[str, int]:
    points = {}
    for part in text.replace(",", " ").split():
        rank, _, value = part.partition("=")
        try:
            points[rank.upper()] = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r} is not RANK=POINTS, like A=15") from None
    return points


def _contracts(text: str) -> list[dict[str, object]]:
    """Parse "2b 1b1r 2r 3b 2b1r 1b2r 3r!" (a trailing ! means no discard), or contracts as a
    player types them, separated by commas: "2 books, 1 book 1 run, 3 runs no discard"."""
    parts = text.split(",") if "," in text else text.split()
    try:
        contracts = [Contract.parse(part) for part in parts if part.strip()]
    except RulesError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return [{"books": c.books, "runs": c.runs, "no_discard": c.no_discard} for c in contracts]


def _rule_options() -> argparse.ArgumentParser:
    options = argparse.ArgumentParser(add_help=False)
    group = options.add_argument_group("house rules (defaults: the seed game)")
    for setting in SETTINGS:
        flag = "--" + setting.name.replace("_", "-")
        kwargs: dict[str, object] = {"dest": setting.name, "default": None, "help": setting.help}
        if setting.kind == "int":
            kwargs["type"] = int
        elif setting.kind == "bool":
            kwargs["action"] = argparse.BooleanOptionalAction
        elif setting.kind == "choice":
            kwargs["choices"] = [name for name, _ in setting.choices]
        elif setting.kind == "int_list":
            kwargs["type"] = _int_list
            kwargs["metavar"] = "N,N,..."
        elif setting.kind == "points":
            kwargs["type"] = _points
            kwargs["metavar"] = "RANK=N,..."
        elif setting.kind == "contracts":
            kwargs["type"] = _contracts
            kwargs["metavar"] = "2b,1b1r,...,3r!"
        group.add_argument(flag, **kwargs)
    options.add_argument("--json", action="store_true", help="print one JSON object")
    return options


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of `python -m rules`."""
    options = _rule_options()
    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description="Check Shanghai Rummy melds, going down, lay-offs and scores.",
        epilog='Example: python -m rules down 3 "3S 4S 5S 6S | 9D 10D JD QD"',
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", parents=[options], help="is this one legal meld?")
    check.add_argument("cards")
    down = commands.add_parser("down", parents=[options], help="is this a legal going down?")
    down.add_argument("contract", type=int)
    down.add_argument("cards", help="melds separated by | (or one flat list of cards)")
    layoff = commands.add_parser("layoff", parents=[options], help="can these cards be laid off?")
    layoff.add_argument("cards")
    layoff.add_argument("meld", help="the meld on the table")
    score = commands.add_parser("score", parents=[options], help="penalty points of a hand")
    score.add_argument("cards", help="cards or ranks alone, e.g. K K 7 JK")
    hint = commands.add_parser("hint", parents=[options], help="best going down in a hand")
    hint.add_argument("contract", type=int)
    hint.add_argument("cards")
    commands.add_parser("summary", parents=[options], help="the rules in plain words")
    return parser


def _rules_from(arguments: argparse.Namespace) -> HouseRules:
    values = {
        item.name: getattr(arguments, item.name)
        for item in fields(HouseRules)
        if getattr(arguments, item.name, None) is not None
    }
    return HouseRules.from_dict(values)


def _show_verdict(verdict: Verdict, title: str) -> list[str]:
    lines = [("✓ " if verdict.ok else "? " if verdict.gave_up else "✗ ") + title]
    for meld in verdict.melds:
        lines.append(f"  {meld.kind:<4}  {format_cards(meld.cards, symbols=True)}")
    if verdict.ok and verdict.leftover:
        lines.append(f"  kept  {format_cards(verdict.leftover, symbols=True)}")
    if verdict.points_shed:
        lines.append(f"  points laid down: {verdict.points_shed}")
    lines.extend(f"  {reason}" for reason in verdict.reasons)
    return lines


def _run(arguments: argparse.Namespace, rules: HouseRules) -> tuple[int, dict, list[str]]:
    command = arguments.command
    if command == "summary":
        sentences = rules_summary(rules)
        return LEGAL, {"summary": sentences, "rules": rules.to_dict()}, sentences
    if command == "score":
        cards = parse_ranks(arguments.cards)
        problems = hand_problems([cards], rules)
        points = penalty_points(cards, rules)
        lines = problems or [
            f"{format_cards(cards, symbols=True)}: {points} point{'s' if points != 1 else ''}"
        ]
        result = {"ok": not problems, "points": points, "reasons": problems}
        return (ILLEGAL if problems else LEGAL), result, lines
    if command == "check":
        verdict = check_meld(parse_cards(arguments.cards), rules)
        kind = verdict.melds[0].kind if verdict.ok else ""
        title = f"Legal {kind}" if verdict.ok else "Not a legal meld"
    elif command == "down":
        text = arguments.cards
        cards = parse_melds(text) if any(sep in text for sep in "|/;\n") else parse_cards(text)
        verdict = check_going_down(arguments.contract, cards, rules)
        name = _contract_name(rules, arguments.contract)
        title = f"Legal going down for {name}" if verdict.ok else f"Cannot go down for {name}"
        if verdict.gave_up:
            title = f"Too many possibilities for {name}"
    elif command == "layoff":
        verdict = check_lay_off(parse_cards(arguments.cards), parse_cards(arguments.meld), rules)
        title = "Legal lay-off" if verdict.ok else "Cannot lay off"
    else:
        verdict = find_going_down(arguments.contract, parse_cards(arguments.cards), rules)
        name = _contract_name(rules, arguments.contract)
        title = f"Best going down for {name}" if verdict.ok else f"No going down for {name}"
        if verdict.gave_up:
            title = (
                f"A going down for {name}" if verdict.ok else f"Too many possibilities for {name}"
            )
    code = LEGAL if verdict.ok else TOO_MANY if verdict.gave_up else ILLEGAL
    return code, verdict.to_dict(), _show_verdict(verdict, title)


def _contract_name(rules: HouseRules, number: int) -> str:
    if 1 <= number <= len(rules.contracts):
        return f"contract {number} ({rules.contracts[number - 1].name})"
    return f"contract {number}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns 0 when legal, 1 when not, 2 for bad input, 3 when there
    were too many possibilities to tell."""
    parser = build_parser()
    try:
        arguments = parser.parse_args(argv)
    except SystemExit as exit_:
        return BAD_INPUT if exit_.code else LEGAL
    try:
        rules = _rules_from(arguments)
        code, result, lines = _run(arguments, rules)
    except (CardError, RulesError) as error:
        if arguments.json:
            print(json.dumps({"ok": False, "error": str(error)}, ensure_ascii=False))
        else:
            print(f"error: {error}", file=sys.stderr)
        return BAD_INPUT
    if arguments.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print("\n".join(lines))
    return code
