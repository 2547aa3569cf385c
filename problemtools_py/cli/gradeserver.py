"""``gradeserver [--host H] [--port P] [DATASET]``: grading over HTTP (SandboxFusion's
``/run_code`` and ``/submit``, and ``/grade``), for trainers that call a sandbox service."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import add_jobs, describe, positive_float, positive_int
from problemtools_py.findings import ExitCode

PROG = "gradeserver"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument("dataset", nargs="?", type=Path, metavar="DATASET",
                        help="a dataset (or packages) directory for problem ids; "
                        "without it, only inline tests")  # fmt: skip
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8080, help="port (0: any free one)")
    add_jobs(parser, "completions graded")
    parser.add_argument("--queue", type=positive_int, default=256, metavar="N",
                        help="requests that may wait before new ones get 503")  # fmt: skip
    parser.add_argument("--time-limit", type=positive_float, default=2.0, metavar="SECONDS",
                        help="CPU seconds per test for inline tests (default 2)")  # fmt: skip
    parser.add_argument("--languages", default="python3,cpp,c,java", metavar="CODES",
                        help="languages /grade reads from fence tags")  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    def body(args: argparse.Namespace) -> ExitCode:
        from aiohttp import web

        from problemtools_py.grading.grader import Grader
        from problemtools_py.grading.results import Settings
        from problemtools_py.grading.service import Service

        languages = tuple(c.strip() for c in args.languages.split(",") if c.strip())
        with Grader(args.dataset, Settings(languages=languages), args.jobs) as grader:
            service = Service(grader, args.jobs, args.queue, args.time_limit)
            print(f"{PROG}: listening on http://{args.host}:{args.port}", flush=True)
            web.run_app(service.app(), host=args.host, port=args.port, print=None,
                        shutdown_timeout=30)  # fmt: skip
        return ExitCode.CLEAN

    return run_cli(PROG, build_parser(), argv, body)


if __name__ == "__main__":
    raise SystemExit(main())
