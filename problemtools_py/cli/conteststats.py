"""``conteststats DIR...``: one table for a contest's problems: type, test cases (sample,
secret, groups), submissions by claimed verdict, the time limit against the slowest
accepted run, the lines of the shortest accepted submission and the input validators'
bounds the test data reaches (from a verification of the submissions and validators;
``--no-run``: the counts alone)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import add_jobs, describe, packages_in
from problemtools_py.findings import ExitCode
from problemtools_py.verdicts import CLAIM_DIRECTORIES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from problemtools_py.author.conteststats import ProblemStats

PROG = "conteststats"
CLAIMS = CLAIM_DIRECTORIES  # (verdicts.py: the results table's columns)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problems", nargs="+", type=Path, metavar="DIR")
    add_jobs(parser, "programs run")
    parser.add_argument(
        "--no-run", action="store_true", help="count only: run no submission or validator"
    )
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        args.problems = packages_in(args.problems, PROG)
        from problemtools_py.author.conteststats import contest_stats

        rows = contest_stats(args.problems, not args.no_run, args.jobs)
        if args.json:
            json.dump(
                {"tool": "problemtools_py", "problems": [r.to_json() for r in rows]},
                sys.stdout,
                indent=2,
            )
            sys.stdout.write("\n")
        else:
            _table(rows)
        return ExitCode.FINDINGS if any(r.errors for r in rows) else ExitCode.CLEAN

    return run_cli(PROG, build_parser(), argv, body)


def _table(rows: list[ProblemStats]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="contest statistics", title_justify="left")
    for name in (
        "problem",
        "type",
        "sample",
        "secret",
        "groups",
        "AC",
        "WA",
        "TLE",
        "RTE",
        "other",
        "limit",
        "slowest AC",
        "shortest AC",
        "bounds",
        "findings",
    ):
        table.add_column(name, justify="left" if name in ("problem", "type") else "right")
    for row in rows:
        subs = row.submissions
        other = sum(n for claim, n in subs.items() if claim not in CLAIMS)
        table.add_row(
            row.problem,
            row.type,
            str(row.sample),
            str(row.secret),
            str(row.groups),
            *(str(subs.get(c, 0)) for c in CLAIMS),
            str(other),
            _seconds(row.time_limit),
            _slowest(row),
            f"{row.shortest_accepted_lines} lines" if row.shortest_accepted else "-",
            f"{row.bounds_reached}/{row.bounds}" if row.bounds else "-",
            f"{row.errors} E, {row.warnings} W",
        )
    Console(soft_wrap=True).print(table)


def _seconds(value: float | None) -> str:
    return f"{value:g} s" if value is not None else "-"


def _slowest(row: ProblemStats) -> str:
    if row.slowest_accepted is None:
        return "-"
    share = f" ({row.slowest_accepted / row.time_limit:.0%})" if row.time_limit else ""
    return f"{row.slowest_accepted:.2f} s{share}"


if __name__ == "__main__":
    raise SystemExit(main())
