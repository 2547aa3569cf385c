"""``newcontest DIR NAME...``: a contest directory with ``contest.yaml``,
``problems.yaml`` (labels A, B, ...) and a new problem package for each name (as
``newproblem`` makes them, all of one type, format and languages)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.newproblem import add_problem_options, report_made
from problemtools_py.cli.options import describe
from problemtools_py.findings import ExitCode

PROG = "newcontest"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("directory", type=Path, metavar="DIR", help="the contest to create")
    parser.add_argument("names", nargs="+", metavar="NAME", help="the problems' short names")
    parser.add_argument("--title", default="", help="the contest's name (default: DIR's)")
    add_problem_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        from problemtools_py.convert.skeletons.skeleton import NewProblem, new_contest

        asked = NewProblem(args.kind, args.format, args.languages, "", args.author, args.license)
        made = new_contest(args.directory, args.names, asked, args.title)
        return report_made([p for p, _ in made], [r for _, r in made], args.json)

    return run_cli(PROG, build_parser(), argv, body)


if __name__ == "__main__":
    raise SystemExit(main())
