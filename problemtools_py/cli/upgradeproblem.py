"""``upgradeproblem DIR... (--in-place | -o OUT) [--dry-run]``: a legacy (or the seed's)
or 2023-07 draft package rewritten as a 2025-09 package, and checked as one.

Keys, directories, test-group files, case descriptions and submissions' claims are
mapped; comments and key order in YAML survive. The time limit stays what it was: a
``.timelimit`` becomes ``limits.time_limit``, and a limit the package leaves to its
submissions is derived here (their accepted runs) and written, unless told otherwise.
What 2025-09 cannot say is an error naming the file, and nothing is written without
``--force``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import check_output, describe, packages_in, positive_float
from problemtools_py.findings import ExitCode, RunReport

PROG = "upgradeproblem"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problems", nargs="+", type=Path, metavar="DIR")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--in-place", action="store_true", help="rewrite each package itself")
    where.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="OUT",
        help="write each upgraded package to OUT/<short name>/",
    )
    where.add_argument(
        "--dry-run", action="store_true", help="print the changes as a diff; write nothing"
    )
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="SECONDS",
        help="write this limit instead of deriving it",
    )
    limit.add_argument(
        "--no-time-limit",
        action="store_true",
        help="write no limit; leave it to the time multipliers (2025-09 then "
        "derives it as legacy did, in whole seconds)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="write even where something cannot be mapped (left out)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print findings only")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        args.problems = packages_in(args.problems, PROG)
        if args.output is not None:
            check_output(args.output, "-o", directory=True)
        from problemtools_py.convert.versions.upgrading import UpgradeOptions, upgrade_one

        asked = UpgradeOptions(
            args.time_limit,
            args.no_time_limit,
            args.force,
            args.dry_run,
            args.in_place,
            args.output,
        )
        run, done = RunReport(), []
        for path in args.problems:
            report, made = upgrade_one(path, asked)
            run.problems.append(report)
            done.append(made)
        if args.json:
            from problemtools_py.cli.reporters import run_to_json

            json.dump({**run_to_json(run), "upgraded": done}, sys.stdout, indent=2)
            sys.stdout.write("\n")
        else:
            _print(run, done, args)
        return run.exit_code

    return run_cli(PROG, build_parser(), argv, body)


def _print(run: RunReport, done: list[dict[str, Any]], args: argparse.Namespace) -> None:
    from problemtools_py.cli.reporters import TextReporter

    reporter = TextReporter(quiet=args.quiet)
    for report, made in zip(run.problems, done, strict=True):
        if args.dry_run and made.get("diff"):
            sys.stdout.write(made["diff"])
        if not args.quiet:
            for note in made["notes"]:
                if note["kind"] != "unmappable":
                    print(f"  {note['kind']}: {note['path']}: {note['message']}", file=sys.stderr)
        reporter.problem(report)
        if args.quiet:
            continue
        if made["from"].startswith("2025-09"):
            print(f"{made['problem']}: already 2025-09: nothing to do", file=sys.stderr)
        elif made["output"] is None and not args.dry_run:
            print(
                f"{made['problem']}: nothing written (--force: without what cannot be mapped)",
                file=sys.stderr,
            )
        elif made["output"] is not None:
            print(f"wrote {made['output']} (2025-09, checked)", file=sys.stderr)
        else:
            print(f"{made['problem']}: checked as 2025-09; nothing written", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
