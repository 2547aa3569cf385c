"""``problem2html DIR...``: render problem statements to HTML pages (or fragments)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import check_output, describe, packages_in
from problemtools_py.findings import ExitCode, ProblemReport, RunReport
from problemtools_py.statements import MATHJAX_URL

if TYPE_CHECKING:  # (the renderer is imported when there is something to render)
    from problemtools_py.statements.html import HtmlResult

PROG = "problem2html"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("problems", nargs="+", type=Path, metavar="DIR")
    parser.add_argument("-l", "--language", help="statement language (default: en, else the first)")
    parser.add_argument(
        "-d",
        "--dest-dir",
        type=Path,
        help="where to write index.html and images (default: ./<problem>_html; with several "
        "problems, DEST/<problem>)",
    )
    parser.add_argument("--body-only", action="store_true", help="an HTML fragment, no page")
    parser.add_argument(
        "--math",
        choices=("mathml", "mathjax"),
        default="mathml",
        help="mathml (default): math rendered when the page is built, read with no network; "
        "mathjax: TeX typeset in the browser by the script at --mathjax-url",
    )
    parser.add_argument(
        "--mathjax-url",
        default=MATHJAX_URL,
        help="with --math mathjax, the script the page loads ('' for none; default: %(default)s)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only findings")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def _dest(args: argparse.Namespace, name: str) -> Path:
    if args.dest_dir is None:
        return Path(f"{name}_html")
    dest: Path = args.dest_dir
    return dest / name if len(args.problems) > 1 else dest


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()

    def body(args: argparse.Namespace) -> ExitCode:
        args.problems = packages_in(args.problems, PROG)
        if args.dest_dir is not None:
            check_output(args.dest_dir, "-d", directory=True)
        run = RunReport()
        from problemtools_py.cli.reporters import TextReporter, count_bar

        results: list[HtmlResult] = []
        reporter = TextReporter(quiet=args.quiet)
        quiet_bar = args.quiet or args.json or len(args.problems) < 2
        with count_bar("rendering", quiet_bar) as bar:
            task = bar.add_task("render", total=len(args.problems))
            for path in args.problems:
                result, report = _one(args, path)
                results.append(result)
                run.problems.append(report)
                bar.advance(task)
                if not args.json:
                    reporter.problem(report)
                    if result.output and not args.quiet:
                        print(f"{report.name}: wrote {result.output}")
        if args.json:
            json.dump(_json(run, results), sys.stdout, indent=2)
            sys.stdout.write("\n")
        return run.exit_code

    return run_cli(PROG, parser, argv, body)


def _one(args: argparse.Namespace, path: Path) -> tuple[HtmlResult, ProblemReport]:
    from problemtools_py.model import load_problem
    from problemtools_py.statements.html import render_html, write_html

    problem = load_problem(path)
    result = render_html(
        problem,
        args.language,
        body_only=args.body_only,
        math=args.math,
        mathjax_url=args.mathjax_url or None,
    )
    if result.ok and result.html is not None:
        write_html(result, problem, _dest(args, problem.short_name))
    report = ProblemReport(problem.short_name, str(path), findings=result.findings)
    report.seconds = result.seconds
    return result, report


def _json(run: RunReport, results: list[HtmlResult]) -> dict[str, Any]:
    return {
        "tool": PROG,
        "exit_code": int(run.exit_code),
        "problems": [
            {
                "name": r.problem,
                "path": report.path,
                "statement": r.statement,
                "language": r.lang,
                "output": r.output,
                "images": r.images,
                "seconds": round(r.seconds, 4),
                "findings": [f.to_json() for f in r.findings],
            }
            for r, report in zip(results, run.problems, strict=True)
        ],
    }
