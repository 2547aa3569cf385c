"""The console scripts (setup.cfg's entry points): each command's ``main`` (which tests
and other code call as a function), then :func:`errorhandler.exit_process` with its exit
code. The command's module is imported only here, when it runs."""

from __future__ import annotations

from importlib import import_module

from problemtools_py.cli.errorhandler import exit_process

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import NoReturn


def _run(command: str) -> NoReturn:
    exit_process(import_module(f"problemtools_py.cli.{command}").main())


def verifyproblem() -> NoReturn:
    _run("verifyproblem")


def hook() -> NoReturn:
    _run("hook")


def parquet2kattis() -> NoReturn:
    _run("parquet2kattis")


def kattis2parquet() -> NoReturn:
    _run("kattis2parquet")


def gradecode() -> NoReturn:
    _run("gradecode")


def generatedata() -> NoReturn:
    _run("generatedata")


def problem2zip() -> NoReturn:
    _run("problem2zip")


def gradeserver() -> NoReturn:
    _run("gradeserver")


def upgradeproblem() -> NoReturn:
    _run("upgradeproblem")


def problem2html() -> NoReturn:
    _run("problem2html")


def problem2pdf() -> NoReturn:
    _run("problem2pdf")
