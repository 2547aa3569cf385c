"""``newproblem NAME [--type T] [--format F] [--languages L]``: a new problem package that
verifies clean at once: a statement, a generator and its ``generators.yaml``, an input
validator, an output validator where the type needs one, accepted submissions in the
languages asked for, and the test data generated from them.

The types: ``pass-fail`` (a sum of a list), ``scoring`` (the same, in two groups of 30
and 70 points), ``interactive`` (guess a number) and ``multi-pass`` (two runs); in
2025-09, or legacy (pass-fail and interactive)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import describe
from problemtools_py.findings import ExitCode, ProblemReport, RunReport

PROG = "newproblem"
TYPES = ("pass-fail", "scoring", "interactive", "multi-pass")  # (see convert.skeletons.skeleton)
LANGUAGES = ("python3", "cpp", "java")


def languages(text: str) -> tuple[str, ...]:
    """``--languages``: a comma-separated list of python3, cpp, java."""
    found = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    bad = [name for name in found if name not in LANGUAGES]
    if not found or bad:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(LANGUAGES)} (got {text!r})")
    return found


def add_problem_options(parser: argparse.ArgumentParser) -> None:
    """The options newproblem and newcontest share."""
    parser.add_argument(
        "--type",
        choices=TYPES,
        default="pass-fail",
        dest="kind",
        help="the problem's type (default: pass-fail)",
    )
    parser.add_argument(
        "--format",
        choices=("2025-09", "legacy"),
        default="2025-09",
        help="package format (default: 2025-09)",
    )
    parser.add_argument(
        "--languages",
        type=languages,
        default=("python3",),
        metavar="LIST",
        help="accepted submissions to write: python3,cpp,java (default: python3)",
    )
    parser.add_argument("--author", default="Anonymous", help="the problem's author")
    parser.add_argument("--license", default="cc by-sa", help="default: cc by-sa")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("name", metavar="NAME", help="the short name: lower-case letters, digits")
    parser.add_argument(
        "-d",
        "--directory",
        type=Path,
        default=Path("."),
        metavar="DIR",
        help="where to create it (default: here)",
    )
    parser.add_argument("--title", default="", help="the problem's name (default: NAME)")
    add_problem_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        from problemtools_py.convert.skeletons.skeleton import NewProblem, new_problem

        asked = NewProblem(
            args.kind, args.format, args.languages, args.title, args.author, args.license
        )
        path, report = new_problem(args.directory, args.name, asked)
        return report_made([path], [report], args.json)

    return run_cli(PROG, build_parser(), argv, body)


def report_made(paths: list[Path], reports: list[ProblemReport], as_json: bool) -> ExitCode:
    """What was written, and generatedata's findings on it (a template's fault: none)."""
    from problemtools_py.cli.reporters import TextReporter, run_to_json

    run = RunReport(problems=reports)
    if as_json:
        json.dump({**run_to_json(run), "created": [str(p) for p in paths]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return run.exit_code
    reporter = TextReporter(quiet=True)
    for report in reports:
        reporter.problem(report)
    for path in paths:
        print(f"wrote {path}; next: verifyproblem {path}", file=sys.stderr)
    return run.exit_code


if __name__ == "__main__":
    raise SystemExit(main())
