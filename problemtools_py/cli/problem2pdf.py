"""``problem2pdf DIR... [-o FILE]``: compile problem statements to PDF with pdflatex (several
problems make one problem set with a title page)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import check_output, describe, packages_in
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode, ProblemReport, RunReport

if TYPE_CHECKING:  # (the renderer is imported when there is something to render)
    from problemtools_py.model.problem import Problem
    from problemtools_py.statements.pdf import PdfResult

PROG = "problem2pdf"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problems", nargs="+", type=Path, metavar="DIR")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        help="the PDF to write (default: <problem>.pdf, or problemset.pdf for several)",
    )
    parser.add_argument("-l", "--language", help="statement language (default: en, else the first)")
    parser.add_argument(
        "--title",
        help="contest title for the title page (several problems: 'Problem Set' unless given)",
    )
    parser.add_argument("--subtitle", default="", help="a line under the title (e.g. the date)")
    parser.add_argument("--draft", action="store_true", help="check only: compile, write nothing")
    parser.add_argument(
        "--solutions",
        action="store_true",
        help="solution slides from each package's solution/ (default output: solutions.pdf)",
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="build again whenever a statement's file changes (Ctrl-C stops)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only findings")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()

    def body(args: argparse.Namespace) -> ExitCode:
        args.problems = packages_in(args.problems, PROG)
        if args.output is not None:
            check_output(args.output, "-o", directory=False)
        from problemtools_py.model import load_problem
        from problemtools_py.statements.pdf import latex_command

        if latex_command() is None:
            raise FatalError(
                "pdflatex not found: install TeX Live (bash scripts/setup.sh does, with apt-get)",
                exit_code=ExitCode.FINDINGS,
            )

        def build() -> ExitCode:
            problems = [load_problem(path) for path in args.problems]
            return _build(args, problems)

        code = build()
        if not args.watch:
            return code
        from problemtools_py.statements.watch import watch

        print(
            f"{PROG}: watching {len(args.problems)} package(s); Ctrl-C stops",
            file=sys.stderr,
            flush=True,
        )
        watch(args.problems, build)
        return code

    return run_cli(PROG, parser, argv, body)


def _build(args: argparse.Namespace, problems: list[Problem]) -> ExitCode:
    """One build (of the statements, or the solution slides), reported."""
    from problemtools_py.cli.reporters import TextReporter
    from problemtools_py.statements.pdf import render_pdf

    output = args.output
    if output is None and not args.draft:
        several = len(problems) > 1
        output = Path(
            "solutions.pdf"
            if args.solutions
            else "problemset.pdf"
            if several
            else f"{problems[0].short_name}.pdf"
        )
    if args.solutions:
        from problemtools_py.statements.solutions import render_slides

        result = render_slides(
            problems, None if args.draft else output, args.language or "en", args.title
        )
    else:
        result = render_pdf(
            problems,
            None if args.draft else output,
            lang=args.language,
            title=args.title,
            subtitle=args.subtitle,
            draft=args.draft,
        )
    name = problems[0].short_name if len(problems) == 1 else "problem set"
    path = str(args.problems[0]) if len(problems) == 1 else "."
    report = ProblemReport(name, path, findings=result.findings, seconds=result.seconds)
    run = RunReport(problems=[report])
    if args.json:
        _print_json(run, result)
    else:
        TextReporter(quiet=args.quiet).problem(report)
        if result.output and not args.quiet:
            print(f"wrote {result.output} ({result.seconds:.2f} s)", flush=True)
    return run.exit_code


def _print_json(run: RunReport, result: PdfResult) -> None:
    findings = [f.to_json() for f in result.findings]
    document = {
        "tool": PROG,
        "exit_code": int(run.exit_code),
        "problems": result.problems,
        "output": result.output,
        "seconds": round(result.seconds, 4),
        "findings": findings,
    }
    json.dump(document, sys.stdout, indent=2)
    sys.stdout.write("\n")
