"""``verifyproblem [options] DIR...``: check problem packages against the format."""

from __future__ import annotations

import argparse
import contextlib
import functools
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from problemtools_py import __version__
from problemtools_py.checks import PARTS
from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import (
    add_jobs,
    add_python,
    check_output,
    check_python,
    packages_in,
    positive_float,
)
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode, ProblemReport, RunReport
from problemtools_py.judging.policy import RunUntil
from problemtools_py.rulesets import Ruleset
from problemtools_py.verify.options import Options, Prepare, needs_sandboxes

TYPE_CHECKING = False  # (not typing's: its import costs every command ~3 ms)
if TYPE_CHECKING:
    from problemtools_py.cli.reporters import JsonReporter, TextReporter

    Reporter = TextReporter | JsonReporter

PROG = "verifyproblem"


def parse_parts(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown or not parts:
        raise argparse.ArgumentTypeError(
            f"unknown part(s) {', '.join(unknown) or '(none)'}; choose from {','.join(PARTS)}"
        )
    return parts


def _regex(text: str) -> re.Pattern[str]:
    try:
        return re.compile(text)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"bad regular expression: {exc}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Check Kattis problem packages (legacy, 2023-07-draft and 2025-09 formats).",
        epilog="Exit codes: 0 clean, 1 errors found (or warnings with -e), 2 usage error, "
        "3 internal error, 130 interrupted.",
    )
    parser.add_argument(
        "problems",
        nargs="+",
        metavar="DIR",
        type=Path,
        help="problem package directories (or .zip/.kpp archives of them)",
    )
    parser.add_argument(
        "-p",
        "--parts",
        type=parse_parts,
        action="append",
        metavar="PART,...",
        help=f"comma-separated parts to check (default: all): {','.join(PARTS)}",
    )
    _add_run_options(parser)
    _add_output_options(parser)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    add_jobs(parser, "programs run")
    parser.add_argument(
        "-t",
        "--fixed-timelim",
        type=positive_float,
        metavar="SECONDS",
        help="use this time limit instead of deriving it",
    )
    parser.add_argument(
        "-s",
        "--submissions",
        type=_regex,
        metavar="REGEX",
        help="only submissions whose path matches",
    )
    parser.add_argument(
        "-d",
        "--data",
        type=_regex,
        metavar="REGEX",
        help="only test cases whose name (e.g. secret/03) matches",
    )
    parser.add_argument(
        "--all-cases",
        action="store_true",
        help="judge each submission on every test case; a pass-fail problem's submissions "
        "otherwise stop at their first failing case, as problemtools does",
    )
    parser.add_argument(
        "--judge",
        choices=[j.value for j in Ruleset],
        default=Ruleset.KATTIS.value,
        help="whose rules decide: the format's text as Kattis reads it (default), "
        "DOMjudge's extensions and judging (its extensions become warnings), or BAPCtools' "
        "judging where the text leaves it open (docs/format.md)",
    )
    parser.add_argument(
        "--no-run", action="store_true", help="the checks only: compile and run nothing"
    )
    parser.add_argument(
        "--sanitizer",
        action="store_true",
        help="build C and C++ submissions with AddressSanitizer and UndefinedBehavior"
        "Sanitizer: undefined behaviour that passes by luck is a run time error",
    )
    parser.add_argument(
        "--write-time-limit",
        action="store_true",
        help="write the derived time limit into the package (problem.yaml's "
        "limits.time_limit, keeping its comments; legacy: .timelimit)",
    )
    parser.add_argument(
        "--report",
        type=Path,
        metavar="FILE",
        help="also write an HTML page: results, CPU time per test case against the limit, "
        "constraint coverage, where generated data comes from",
    )
    parser.add_argument(
        "--constraints",
        action="store_true",
        help="report the bounds input validators check (--constraints_file) that no test "
        "case reaches, or that the statement states otherwise",
    )
    parser.add_argument(
        "--generate",
        action="store_true",
        help="first write stale test data from generators/generators.yaml (see generatedata)",
    )
    add_python(parser, "Python programs")
    parser.add_argument(
        "--visualize",
        type=Path,
        metavar="DIR",
        help="run the input visualizer on each test case and the output visualizer after "
        "each validation, writing images to DIR/<problem>/",
    )


def _add_output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-e", "--werror", action="store_true", help="treat warnings as errors")
    parser.add_argument(
        "-b",
        "--bail-on-error",
        action="store_true",
        help="stop at the first part that finds an error",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only findings")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show each part as it runs, check names and timings",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print a JSON report on stdout (schema: schemas/report.schema.json)",
    )


def _check_dirs(paths: list[Path]) -> None:
    for path in paths:
        if path.is_dir():
            continue
        from problemtools_py.model.archive import is_archive

        if is_archive(path):
            continue
        if str(path) in PARTS:
            raise FatalError(
                f"'{path}' is a part name, not a directory; give parts as one "
                "comma-separated list, e.g. -p config,statement DIR"
            )
        what = (
            "is neither a directory nor a .zip/.kpp archive"
            if path.exists()
            else "no such directory"
        )
        raise FatalError(f"{path}: {what}")


def _check_outputs(report: Path | None, visualize: Path | None) -> None:
    """Where --report and --visualize write, checked before anything runs (not after a
    verification of minutes)."""
    if report is not None:
        check_output(report, "--report", directory=False, example="report.html")
    if visualize is not None:
        if visualize.exists() and not visualize.is_dir():
            raise FatalError(f"--visualize {visualize}: not a directory")
        try:
            visualize.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FatalError(
                f"--visualize {visualize}: cannot make the directory: {exc.strerror or exc}"
            ) from None


def _options(args: argparse.Namespace) -> Options:
    return Options(
        jobs=args.jobs,
        fixed_time_limit=args.fixed_timelim,
        submissions=args.submissions,
        data=args.data,
        visualize=args.visualize,
        prepare=_stale_data(args.jobs) if args.generate else None,
        constraints=args.constraints,
        run_until=RunUntil.EVERY_CASE if args.all_cases else RunUntil.FIRST_FAILURE,
        python=args.python,
        ruleset=Ruleset(args.judge),
        sanitizer=args.sanitizer,
    )


def _stale_data(jobs: int) -> Prepare:
    """``--generate``: each package's stale test data made from its generators.yaml
    before it is verified."""
    from problemtools_py.generate.runner import stale_data

    return functools.partial(stale_data, jobs=jobs)


def _contest_archives(args: argparse.Namespace, stack: contextlib.ExitStack) -> dict[str, str]:
    """A contest's archive stands for its packages, as its directory would: it is unpacked
    whole (for as long as ``stack`` lasts) and its packages take its place in
    ``args.problems``. Returns each one's unpacked path -> its name for the reports
    (``set.zip/hello``)."""
    from problemtools_py.model.archive import is_archive, packages_of, unpacked

    shown: dict[str, str] = {}
    found: list[Path] = []
    for path in args.problems:
        inner = packages_of(path) if is_archive(path) else []
        if not inner:
            found.append(path)
            continue
        root = stack.enter_context(unpacked(path, whole=True))
        print(
            f"{PROG}: {path} is a contest's archive; taking the {len(inner)} packages in "
            f"it: {', '.join(inner)}",
            file=sys.stderr,
        )
        for name in inner:
            found.append(root / name)
            shown[str(root / name)] = str(path / name)
    args.problems = found
    return shown


def _verify_and_report(
    args: argparse.Namespace, parts: list[str], shown: dict[str, str]
) -> ExitCode:
    # (imported here: --help and usage errors need neither the reporters nor the model)
    from problemtools_py.cli.reporters import JsonReporter, TextReporter

    reporter = JsonReporter() if args.json else TextReporter(args.quiet, args.verbose)
    seen = RunReport(werror=args.werror)  # (what had finished, should Ctrl-C come)
    try:
        run = _verify(args, parts, reporter, seen, shown)
    except KeyboardInterrupt:
        seen.interrupted = True  # (exit 130: the text, the JSON and the page say so)
        reporter.interrupted(seen)
        _write_page(args.report, seen)
        raise
    reporter.finish(run)
    _write_page(args.report, run)
    if args.write_time_limit:
        _write_limits(run, args.fixed_timelim is not None)
    return run.exit_code


def _write_limits(run: RunReport, fixed_by_option: bool) -> None:
    """--write-time-limit: each package's derived limit written into it (see
    convert.timelimits); never from a package with errors, whose runs prove nothing."""
    from problemtools_py.convert.timelimits import write_time_limit

    for report in run.problems:
        if report.errors:
            said = "not written: the package has errors"
        elif report.time_limit is None or not Path(report.path).is_dir():
            said = "not written: no time limit was decided (no submission ran)"
        else:
            said = write_time_limit(Path(report.path), report.time_limit, fixed_by_option)
        print(f"{report.name}: {said}", file=sys.stderr)


def _verify(
    args: argparse.Namespace,
    parts: list[str],
    reporter: Reporter,
    seen: RunReport,
    shown: dict[str, str],
) -> RunReport:
    """Every package, each report handed to ``reporter`` and kept in ``seen`` as it ends
    (a package of a contest's archive named as in it, see _contest_archives)."""
    from problemtools_py.verify.verifier import verify_all

    def on_report(report: ProblemReport) -> None:
        report.path = shown.get(report.path, report.path)
        seen.problems.append(report)
        reporter.problem(report)

    with reporter.progress() as progress:
        return verify_all(
            args.problems,
            parts,
            bail=args.bail_on_error,
            werror=args.werror,
            run_programs=not args.no_run,
            options=_options(args),
            on_part=reporter.part,
            on_report=on_report,
            progress=progress,
        )


def _write_page(path: Path | None, run: RunReport) -> None:
    if path is not None:
        from problemtools_py.cli.htmlreport import write_report

        write_report(run, path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()

    def body(args: argparse.Namespace) -> ExitCode:
        with contextlib.ExitStack() as unpacked:  # (contests' archives, removed at the end)
            args.problems = packages_in(args.problems, PROG)
            shown = _contest_archives(args, unpacked)
            _check_dirs(args.problems)
            _check_outputs(args.report, args.visualize)
            check_python(args.python)
            parts = (
                [p for p in PARTS if any(p in chosen for chosen in args.parts)]
                if args.parts
                else list(PARTS)
            )
            if needs_sandboxes(parts, not args.no_run):  # (its start overlaps the imports)
                from problemtools_py.sandbox.launch import start_early

                start_early()
            return _verify_and_report(args, parts, shown)

    return run_cli(PROG, parser, argv, body)


if __name__ == "__main__":
    raise SystemExit(main())
