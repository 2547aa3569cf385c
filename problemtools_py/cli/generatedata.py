"""``generatedata DIR...``: write each package's test data from its generators.yaml."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import add_jobs, describe, packages_in, positive_float
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode, RunReport
from problemtools_py.generate import DEFAULT_SECONDS

PROG = "generatedata"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problems", nargs="+", type=Path, metavar="DIR")
    add_jobs(parser, "test cases made")
    parser.add_argument(
        "--check-deterministic",
        action="store_true",
        help="run every generator twice and report a test case whose files differ",
    )
    parser.add_argument(
        "--clean",
        action="store_true",
        help="remove the files in data/ that generators.yaml does not make",
    )
    parser.add_argument(
        "--force", action="store_true", help="remake every test case, even those up to date"
    )
    parser.add_argument(
        "-t",
        "--timeout",
        type=positive_float,
        default=DEFAULT_SECONDS,
        metavar="SECONDS",
        help=f"CPU seconds per generator or solution run (default {DEFAULT_SECONDS:g})",
    )
    fuzz = parser.add_argument_group("fuzzing (see docs/authoring.md)")
    fuzz.add_argument(
        "--fuzz",
        action="store_true",
        help="run the random generators with fresh seeds; keep the cases that "
        "accepted submissions, validators or the solution fail",
    )
    fuzz.add_argument(
        "--time",
        type=positive_float,
        default=60.0,
        metavar="SECONDS",
        help="how long to fuzz each package (default 60)",
    )
    fuzz.add_argument(
        "--add", action="store_true", help="record the cases found in generators.yaml (data: fuzz:)"
    )
    fuzz.add_argument("--seed", type=int, metavar="N", help="seed the seeds (a run repeated)")
    parser.add_argument("-e", "--werror", action="store_true", help="treat warnings as errors")
    parser.add_argument("-q", "--quiet", action="store_true", help="print findings only")
    parser.add_argument("-v", "--verbose", action="store_true", help="check names and timings")
    parser.add_argument("--json", action="store_true", help="print a JSON report on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        from problemtools_py.generate.runner import YAML_REL, GenerateOptions, generate_problem

        args.problems = packages_in(args.problems, PROG, having=YAML_REL)
        for path in args.problems:
            if not path.is_dir():
                raise FatalError(f"{path}: no such directory")
        if args.fuzz:
            from problemtools_py.cli.fuzzing import fuzz_all

            return fuzz_all(args)
        from problemtools_py.cli.reporters import JsonReporter, TextReporter
        from problemtools_py.sandbox.pool import SandboxPool

        options = GenerateOptions(
            args.jobs, args.check_deterministic, args.clean, args.force, seconds=args.timeout
        )
        reporter = JsonReporter() if args.json else TextReporter(args.quiet, args.verbose)
        run = RunReport(werror=args.werror)
        with SandboxPool(args.jobs + 1) as pool, reporter.progress() as progress:
            for path in args.problems:
                reporter.part(path.name, "generate")
                report = generate_problem(path, pool, options, progress)
                run.problems.append(report)
                reporter.problem(report)
        reporter.finish(run)
        return run.exit_code

    return run_cli(PROG, build_parser(), argv, body)


if __name__ == "__main__":
    raise SystemExit(main())
