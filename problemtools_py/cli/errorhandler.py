"""The one top-level handler: fatal errors become a clear message, Ctrl-C exits 130, and an
unexpected exception is an internal error (exit 3), its traceback shown only on request."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import os
import sys
import threading
from collections.abc import Callable, Sequence

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import NoReturn

DEBUG_ENV = "PROBLEMTOOLS_PY_DEBUG"


def run_cli(
    prog: str,
    parser: argparse.ArgumentParser,
    argv: Sequence[str] | None,
    body: Callable[[argparse.Namespace], ExitCode],
) -> int:
    """Parse ``argv`` (a usage error exits 2, ``--help`` 0) and run ``body`` on the result
    under :func:`run_command`."""

    def parsed() -> ExitCode:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:
            return ExitCode.CLEAN if exc.code == 0 else ExitCode.USAGE
        from problemtools_py.sandbox.stopping import stop_on_interrupt

        stop_on_interrupt(ExitCode.INTERRUPTED)  # (Ctrl-C ends the programs running too)
        return body(args)

    return run_command(prog, parsed)


def exit_process(code: int) -> NoReturn:
    """End the process with ``code``, as a command's console script does (see console.py):
    the atexit handlers run and the standard streams are flushed; then, when no thread is
    left but daemons, the process ends without the interpreter's teardown, which frees
    every module and object one by one (~11 ms of every command, for memory the exit frees
    anyway). With another thread still running, as ``sys.exit`` does (it waits for it)."""
    main = threading.main_thread()
    if any(t is not main and not t.daemon and t.is_alive() for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # (a closed or broken stream)
            stream.flush()
    os._exit(code)


def run_command(prog: str, body: Callable[[], ExitCode]) -> int:
    """Run ``body`` and map every way it can end to an exit code."""
    try:
        return int(body())
    except FatalError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return int(exc.exit_code)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return int(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more to say.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return int(ExitCode.INTERNAL)
    except OSError as exc:  # the machine said no (disk full, permissions): not a bug of ours
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{prog}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return int(ExitCode.FINDINGS)
    except Exception as exc:
        print(f"{prog}: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        if os.environ.get(DEBUG_ENV):
            import traceback  # (only here: it costs every command's start-up)

            traceback.print_exc()
        else:
            print(
                f"{prog}: this is a bug in problemtools_py; set {DEBUG_ENV}=1 to see the "
                "traceback and please report it",
                file=sys.stderr,
            )
        return int(ExitCode.INTERNAL)
