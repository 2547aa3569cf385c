"""``problem2zip DIR... -o OUT``: each problem package as a reproducible zip (or, with
``--samples``, its contestants' samples), checked after writing."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import check_output, describe, packages_in
from problemtools_py.findings import ExitCode, RunReport

PROG = "problem2zip"
FORMATS = ("2025-09", "kattis", "legacy", "domjudge")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problems", nargs="+", type=Path, metavar="DIR")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="OUT",
        help="the zip (one problem, a name ending in .zip), or a directory for <name>.zip",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="2025-09",
        help="2025-09: the package as it stands, auxiliary files left out; kattis: the same "
        "with constants substituted where the format says; "
        "legacy: downgraded so that tools reading only legacy take it; domjudge: legacy "
        "with the time limit fixed, claims as @EXPECTED_RESULTS@ and the statement prebuilt",
    )
    parser.add_argument(
        "--force", action="store_true", help="legacy: write even what cannot be said (left out)"
    )
    parser.add_argument(
        "--samples", action="store_true", help="the contestants' samples zip instead"
    )
    parser.add_argument(
        "--problemset",
        action="store_true",
        help="one zip (-o OUT.zip) of all the problems, with problems.yaml and contest.yaml "
        "as DOMjudge imports a contest (kept from the problems' parent directory if there)",
    )
    parser.add_argument("--contest-name", metavar="NAME", help="with --problemset: its name")
    parser.add_argument(
        "--no-pdf",
        dest="pdf",
        action="store_false",
        help="2025-09/kattis: no statement PDF beside the zip (<name>.pdf, with pdflatex)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print findings only")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        args.problems = packages_in(args.problems, PROG)
        one_zip = args.output.suffix == ".zip" and (len(args.problems) == 1 or args.problemset)
        check_output(args.output, "-o", directory=not one_zip)
        from problemtools_py.cli.reporters import TextReporter
        from problemtools_py.convert.zips.zipping import ZipOptions, each_zip, problemset_zip

        asked = ZipOptions(
            args.problems,
            args.output,
            args.format,
            args.samples,
            args.force,
            args.pdf,
            args.contest_name,
        )
        run, written = problemset_zip(asked) if args.problemset else each_zip(asked)
        if args.json:
            _print_json(run, written)
            return run.exit_code
        reporter = TextReporter(quiet=args.quiet)
        for report in run.problems:
            reporter.problem(report)
        for made in written if not args.quiet else ():
            for what in made.get("left_out", ()):
                print(f"  left out: {what}", file=sys.stderr)
            if made["zip"] is not None:
                pdf = f" and {made['pdf']}" if made.get("pdf") else ""
                print(f"wrote {made['zip']} ({made['entries']} files){pdf}", file=sys.stderr)
            else:
                print(
                    f"{made['problem']}: nothing written (--force: without what cannot be said)",
                    file=sys.stderr,
                )
        return run.exit_code

    return run_cli(PROG, build_parser(), argv, body)


def _print_json(run: RunReport, written: list[dict[str, Any]]) -> None:
    from problemtools_py.cli.reporters import run_to_json

    json.dump({**run_to_json(run), "written": written}, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    raise SystemExit(main())
