"""The console scripts (setup.cfg's entry points): each command's ``main`` (which tests
and other code call as a function), then :func:`errorhandler.exit_process` with its exit
code. The command's module is imported only here, when it runs."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from importlib import import_module

from problemtools_py.exitcodes import ExitCode

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import NoReturn


def _entry(command: str) -> Callable[[], NoReturn]:
    def run() -> NoReturn:
        try:  # (Ctrl-C before the command's own handler is in place: no traceback either)
            from problemtools_py.cli.errorhandler import exit_process

            code = import_module(f"problemtools_py.cli.{command}").main()
        except KeyboardInterrupt:
            _interrupted()
        exit_process(code)

    run.__name__ = run.__qualname__ = command
    return run


def _interrupted() -> NoReturn:
    with contextlib.suppress(OSError, ValueError):
        print(f"{os.path.basename(sys.argv[0])}: interrupted", file=sys.stderr, flush=True)
    os._exit(ExitCode.INTERRUPTED)


verifyproblem = _entry("verifyproblem")
hook = _entry("hook")
parquet2kattis = _entry("parquet2kattis")
kattis2parquet = _entry("kattis2parquet")
gradecode = _entry("gradecode")
generatedata = _entry("generatedata")
problem2zip = _entry("problem2zip")
gradeserver = _entry("gradeserver")
upgradeproblem = _entry("upgradeproblem")
problem2html = _entry("problem2html")
problem2pdf = _entry("problem2pdf")
newproblem = _entry("newproblem")
newcontest = _entry("newcontest")
runsubmission = _entry("runsubmission")
conteststats = _entry("conteststats")
auditdata = _entry("auditdata")
importdataset = _entry("importdataset")
