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
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import describe, positive_float
from problemtools_py.findings import ExitCode, ProblemReport, RunReport, error, warning

if TYPE_CHECKING:
    from problemtools_py.convert.upgrade import Plan

PROG = "upgradeproblem"
STATIC_PARTS = ("config", "statement", "data")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problems", nargs="+", type=Path, metavar="DIR")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--in-place", action="store_true", help="rewrite each package itself")
    where.add_argument("-o", "--output", type=Path, metavar="OUT",
                       help="write each upgraded package to OUT/<short name>/")  # fmt: skip
    where.add_argument("--dry-run", action="store_true",
                       help="print the changes as a diff; write nothing")  # fmt: skip
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--time-limit", type=positive_float, metavar="SECONDS",
                       help="write this limit instead of deriving it")  # fmt: skip
    limit.add_argument("--no-time-limit", action="store_true",
                       help="write no limit; leave it to the time multipliers (2025-09 then "
                       "derives it as legacy did, in whole seconds)")  # fmt: skip
    parser.add_argument("--force", action="store_true",
                        help="write even where something cannot be mapped (left out)")  # fmt: skip
    parser.add_argument("-q", "--quiet", action="store_true", help="print findings only")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        run, done = RunReport(), []
        for path in args.problems:
            report, made = _one(path, args)
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


def _one(path: Path, args: argparse.Namespace) -> tuple[ProblemReport, dict[str, Any]]:
    from problemtools_py.convert.upgrade import plan_upgrade
    from problemtools_py.model import load_problem
    from problemtools_py.verify.verifier import derived_time_limit

    problem = load_problem(path)
    made: dict[str, Any] = {"problem": problem.short_name, "path": str(path),
                            "from": problem.format.value}  # fmt: skip
    limit = None
    if problem.released:
        report = ProblemReport(problem.short_name, str(path), problem.format.value)
        return report, {**made, "notes": [], "time_limit": None, "output": None}
    if problem.declared_time_limit is None and not args.no_time_limit:
        limit = args.time_limit if args.time_limit is not None else derived_time_limit(path)
    plan = plan_upgrade(problem, limit)
    made["notes"] = [{"kind": n.kind, "path": n.path, "message": n.message} for n in plan.notes]
    made["time_limit"] = limit
    report = ProblemReport(problem.short_name, str(path), problem.format.value)
    if plan.already:
        made["output"] = None
        return report, made
    said = warning if args.force else error  # (forced: what was left out, said)
    report.findings += [said("upgrade", n.message, n.path) for n in plan.unmappable]
    if plan.unmappable and not args.force:
        made["output"] = None  # nothing written
        return report, made
    target = _write(plan, path, args, made)
    checked = _verify(target)
    report.findings += checked.findings
    if not args.dry_run:
        report.path = str(target)  # (what was checked)
    made["output"] = None if args.dry_run else str(target)
    return report, made


def _write(plan: Plan, path: Path, args: argparse.Namespace, made: dict[str, Any]) -> Path:
    from problemtools_py.convert.upgrade_write import diff, write_in_place, write_new

    if args.dry_run:
        made["diff"] = diff(plan)
        scratch = Path(tempfile.mkdtemp(prefix="ptpy-upgrade-"))
        write_new(plan, scratch / plan.problem.short_name)  # checked, then removed
        return scratch / plan.problem.short_name
    if args.in_place:
        write_in_place(plan)
        return path
    target: Path = args.output / plan.problem.short_name
    write_new(plan, target)
    return target


def _verify(target: Path) -> ProblemReport:
    import shutil

    from problemtools_py.verify.verifier import verify_problem

    try:
        return verify_problem(target, STATIC_PARTS)
    finally:
        if target.parent.name.startswith("ptpy-upgrade-"):
            shutil.rmtree(target.parent, ignore_errors=True)


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
            print(f"{made['problem']}: nothing written (--force: without what cannot be "
                  "mapped)", file=sys.stderr)  # fmt: skip
        elif made["output"] is not None:
            print(f"wrote {made['output']} (2025-09, checked)", file=sys.stderr)
        else:
            print(f"{made['problem']}: checked as 2025-09; nothing written", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
