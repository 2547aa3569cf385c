"""``gradeserver [--host H] [--port P] [DATASET]``: grading over HTTP (SandboxFusion's
``/run_code`` and ``/submit``, and ``/grade``), for trainers that call a sandbox service."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from problemtools_py.cli.errorhandler import run_cli
from problemtools_py.cli.options import (
    add_jobs,
    add_python,
    check_python,
    describe,
    positive_float,
    positive_int,
)
from problemtools_py.dataset.arrow import without_numpy
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

if TYPE_CHECKING:
    from asyncio import AbstractEventLoop

    from problemtools_py.grading.grader import Grader
    from problemtools_py.grading.service.backends import Workers

PROG = "gradeserver"
STOP_CODES = {signal.SIGTERM: ExitCode.CLEAN, signal.SIGINT: ExitCode.INTERRUPTED}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=describe(__doc__))
    parser.add_argument(
        "dataset",
        nargs="?",
        type=Path,
        metavar="DATASET",
        help="a dataset (or packages) directory for problem ids; without it, only inline tests",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8080, help="port (0: any free one)")
    add_jobs(parser, "completions graded")
    parser.add_argument(
        "--queue",
        type=positive_int,
        default=1024,
        metavar="N",
        help="requests (of any size) that may wait before new ones get "
        "503, or 504 on SandboxFusion's endpoints (default 1024)",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        default=2.0,
        metavar="SECONDS",
        help="CPU seconds per test for inline tests (default 2)",
    )
    parser.add_argument(
        "--languages",
        default="python3,cpp,c,java",
        metavar="CODES",
        help="languages /grade reads from fence tags",
    )
    add_python(parser, "Python programs")
    parser.add_argument(
        "--on-bad-row",
        choices=("score", "raise"),
        default="score",
        help="a /grade item that cannot be graded: answered in its place "
        "with status bad_row (score, the default), or the request's 400 "
        "(raise)",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="grade on the Ray cluster at ADDRESS (local: start one here); "
        "the dataset must be at the same path on every node",
    )
    parser.add_argument(
        "--ray-workers",
        type=positive_int,
        metavar="N",
        help="actors on the cluster (default: --jobs)",
    )
    parser.add_argument(
        "--replicas",
        type=positive_int,
        default=1,
        metavar="N",
        help="N services behind the one address (SO_REUSEPORT), replica k "
        "also alone on port + k for its /metrics and /health",
    )
    parser.add_argument("--replica", type=int, default=0, help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    own_process = argv is None

    def body(args: argparse.Namespace) -> ExitCode:
        if args.replicas > 1:
            from problemtools_py.grading.service.replicas import run_replicas

            given = list(sys.argv[1:] if argv is None else argv)
            return run_replicas(
                _without(given, "--replicas", "--port"), args.replicas, args.host, args.port
            )
        if own_process and args.ray is None:  # (not a caller's: see dataset.arrow)
            without_numpy()
        import asyncio

        from problemtools_py.grading.grader import Grader
        from problemtools_py.grading.results import Settings

        languages = tuple(c.strip() for c in args.languages.split(",") if c.strip())
        check_python(args.python)
        settings = Settings(languages=languages, python=args.python)
        with Grader(args.dataset, settings, args.jobs) as grader:
            if args.ray is None:
                code = asyncio.run(_serve(grader, args, None))
            else:
                from problemtools_py.grading.cluster.actors import ray_workers

                workers = args.ray_workers or args.jobs
                with ray_workers(args.ray, args.dataset, settings, workers) as on_ray:
                    code = asyncio.run(_serve(grader, args, on_ray))
            for signum in STOP_CODES:  # stopping: more signals are ignored, to the end
                signal.signal(signum, signal.SIG_IGN)  # (SIG_IGN survives Python's exit)
        print(f"{PROG}: stopped", file=sys.stderr, flush=True)  # (every sandbox closed)
        return code

    return run_cli(PROG, build_parser(), argv, body)


async def _serve(grader: Grader, args: argparse.Namespace, workers: Workers | None) -> ExitCode:
    """Listen until SIGTERM (exit 0) or SIGINT (130); then stop taking requests, let the
    running ones finish (up to 30 s) and close every sandbox."""
    import asyncio

    from aiohttp import web

    from problemtools_py.grading.service.connections import GuardedSite
    from problemtools_py.grading.service.server import Service

    service = Service(grader, args.queue, args.time_limit, workers)
    service.replica = args.replica
    service.on_bad_row = args.on_bad_row
    runner = web.AppRunner(  # (a client that goes away cancels its request: see _work)
        service.app(),
        shutdown_timeout=30,
        handle_signals=False,
        access_log=None,
        handler_cancellation=True,
    )
    await runner.setup()
    try:
        shared = args.replica > 0  # (one of --replicas: the port shared, and one alone)
        ports = [args.port, args.port + args.replica] if shared else [args.port]
        for port in ports:
            site = GuardedSite(
                runner,
                service.connections,
                args.host,
                port,
                reuse_port=shared and port == args.port,
            )
            try:
                await site.start()
            except OSError as exc:
                why = os.strerror(exc.errno) if exc.errno else str(exc)
                raise FatalError(f"cannot listen on {args.host}:{port}: {why}") from None
        host, port = runner.addresses[0][:2]
        alone = f" (replica {args.replica}, alone on {ports[-1]})" if shared else ""
        # (one write: replicas share the pipe, and a line must not be cut by another's)
        sys.stdout.write(f"{PROG}: listening on http://{host}:{port}{alone}\n")
        sys.stdout.flush()
        stopped: asyncio.Future[ExitCode] = asyncio.get_running_loop().create_future()

        def stop(code: ExitCode) -> None:
            if not stopped.done():
                stopped.set_result(code)

        _on_stop(asyncio.get_running_loop(), stop)
        code = await stopped
        print(
            f"{PROG}: stopping: finishing {service.running} running, {service.waiting} waiting",
            file=sys.stderr,
            flush=True,
        )
        return code
    finally:
        await runner.cleanup()


def _on_stop(loop: AbstractEventLoop, stop: Callable[[ExitCode], None]) -> None:
    """SIGTERM and SIGINT stop the service. Plain signal handlers, not the loop's: those
    are reset to the default when the loop closes, so a second signal while the sandboxes
    close would kill the process and cut their cleanup short; these do nothing then (and
    are replaced by SIG_IGN as soon as the loop has ended)."""

    def handler(signum: int, frame: object) -> None:
        with contextlib.suppress(RuntimeError):  # (the loop has ended: stopping already)
            loop.call_soon_threadsafe(stop, STOP_CODES[signal.Signals(signum)])

    for signum in STOP_CODES:
        signal.signal(signum, handler)


def _without(argv: list[str], *options: str) -> list[str]:
    """``argv`` without ``options`` and their values (``--port 80`` or ``--port=80``)."""
    kept, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word in options:
            skip = True
        elif not word.startswith(tuple(f"{o}=" for o in options)):
            kept.append(word)
    return kept


if __name__ == "__main__":
    raise SystemExit(main())
