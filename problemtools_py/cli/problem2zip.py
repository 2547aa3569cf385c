"""``problem2zip DIR... -o OUT``: each problem package as a reproducible zip (or, with
``--samples``, its contestants' samples), checked after writing."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import describe
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode, Finding, ProblemReport, RunReport

if TYPE_CHECKING:
    from problemtools_py.model.problem import Problem

PROG = "problem2zip"
FORMATS = ("2025-09", "kattis", "legacy", "domjudge")
STATIC_PARTS = ("config", "statement", "data")


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
        help="2025-09 or kattis: the package as it stands, auxiliary files left out; "
        "legacy: downgraded so that tools reading only legacy take it; domjudge: legacy "
        "with the time limit fixed, claims as @EXPECTED_RESULTS@ and the statement prebuilt",
    )
    parser.add_argument(
        "--force", action="store_true", help="legacy: write even what cannot be said (left out)"
    )
    parser.add_argument(
        "--samples", action="store_true", help="the contestants' samples zip instead"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print findings only")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def _target(out: Path, name: str, many: bool, samples: bool) -> Path:
    if not many and out.suffix == ".zip":
        return out
    return out / (f"{name}-samples.zip" if samples else f"{name}.zip")


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        from problemtools_py.cli.reporters import TextReporter
        from problemtools_py.convert.contents import (
            legacy_entries,
            package_entries,
            sample_entries,
        )
        from problemtools_py.convert.zipfiles import write_zip
        from problemtools_py.model import load_problem
        from problemtools_py.verify.verifier import verify_problem

        many = len(args.problems) > 1
        if many and args.output.suffix == ".zip":
            raise FatalError("several problems: -o names a directory, not a .zip")
        run, written = RunReport(), []
        for path in args.problems:
            problem = load_problem(path)
            target = _target(args.output, problem.short_name, many, args.samples)
            # (the zip's base name is the problem's short name: its one directory)
            base = target.name.removesuffix(".zip")
            notes: list[Finding] = []
            if args.samples:
                entries = sample_entries(problem)
            elif args.format in ("legacy", "domjudge"):
                domjudge = args.format == "domjudge"
                limit = _limit(problem, path, always=domjudge)
                entries, notes = legacy_entries(problem, base, args.force, limit, domjudge)
            else:
                entries = package_entries(problem, base)
            count = write_zip(target, entries) if entries else 0
            report = (
                verify_problem(target, STATIC_PARTS)
                if not args.samples and entries
                else ProblemReport(problem.short_name, str(path))
            )
            report.findings[:0] = notes
            run.problems.append(report)
            zipped = str(target) if entries else None
            written.append({"problem": problem.short_name, "zip": zipped, "entries": count})
        if args.json:
            _print_json(run, written)
        else:
            reporter = TextReporter(quiet=args.quiet)
            for report, made in zip(run.problems, written, strict=True):
                reporter.problem(report)
                if not args.quiet and made["zip"] is not None:
                    print(f"wrote {made['zip']} ({made['entries']} files)", file=sys.stderr)
                elif not args.quiet:
                    print(f"{made['problem']}: nothing written (--force: without what "
                          "cannot be said)", file=sys.stderr)  # fmt: skip
        return run.exit_code

    return run_cli(PROG, build_parser(), argv, body)


def _limit(problem: Problem, path: Path, always: bool) -> float | None:
    """The time limit to fix: where legacy's rule (whole seconds) would derive another,
    or ``always`` (DOMjudge takes no rule, only a limit), the one the package declares
    or its accepted submissions' runs give."""
    from problemtools_py.verify.verifier import verify_all

    declared = problem.declared_time_limit
    if declared is not None and declared.seconds is not None:
        return None  # (it stays: .timelimit, or limits.time_limit becomes one)
    if not always and (problem.legacy or problem.config.limits.time_resolution == 1):
        return None  # (the same rule: ceil(slowest * multiplier) whole seconds)
    report = verify_all([path], ("submissions",)).problems[0]
    return report.time_limit if not report.errors else None


def _print_json(run: RunReport, written: list[dict[str, Any]]) -> None:
    from problemtools_py.cli.reporters import run_to_json

    json.dump({**run_to_json(run), "written": written}, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    raise SystemExit(main())
