"""Parse a LaTeX statement with plasTeX, with the macros of the problem format defined,
and collect plasTeX's complaints (an unknown macro, a bad argument) with their lines."""

from __future__ import annotations

import contextlib
import logging
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from problemtools_py.statements import collation

collation.defer()  # (before plasTeX is imported: see collation)

from plasTeX import Command, Environment  # noqa: E402
from plasTeX import Logging as plastex_logging  # noqa: E402
from plasTeX.TeX import TeX  # noqa: E402

from problemtools_py.model.statements import strip_comments  # noqa: E402
from problemtools_py.statements.images import resolve  # noqa: E402

PREAMBLE = (
    r"\documentclass{article}\usepackage{amsmath,amssymb,graphicx,hyperref,url}"
    r"\begin{document}"
)
MAX_TOKENS = 1_000_000  # a long statement is ~50,000
MAX_SECONDS = 10.0
_LOCK = threading.Lock()  # plasTeX's loggers are process-global
PARSE_FAILED = "plasTeX could not parse the statement"


def _macro(base: type, name: str, args: str | None = None) -> type:
    return type(name, (base,), {"args": args} if args else {})


# The macros of the problem format, as plasTeX classes (arguments in plasTeX's syntax).
MACROS = {
    cls.__name__: cls
    for cls in (
        _macro(Command, "problemname", "[ short ] name"),
        _macro(Command, "illustration", "width:str file:str caption"),
        _macro(Command, "constant", "name:str"),
        _macro(Command, "nextsample"),
        _macro(Command, "remainingsamples"),
        _macro(Command, "includesample", "name:str"),
        _macro(Command, "sampletable", "hdrin filein:str hdrout fileout:str"),
        _macro(Command, "lstinputlisting", "[ options ] file:str"),  # never read: no path checks
        _macro(Command, "verbatiminput", "file:str"),
        # BAPCtools' statement macros: the name problem.yaml gives, the time limit
        _macro(Command, "problemyamlname"),
        _macro(Command, "timelimit"),
        # the LaTeX kernel's and common packages' (array, scalerel) that plasTeX lacks
        _macro(Command, "shortstack", "[ pos:str ] text"),
        _macro(Command, "newcolumntype", "name:nox [ count:nox ] spec:nox"),
        _macro(Command, "arraybackslash"),
        _macro(Command, "scalerel", "* [ width:nox ] over base"),
        _macro(Command, "stretchrel", "* [ width:nox ] over base"),
        _macro(Environment, "Input"),
        _macro(Environment, "Output"),
        _macro(Environment, "Interaction"),
    )
}


@dataclass(frozen=True)
class Complaint:
    """A problem plasTeX or our reading found in a LaTeX statement, with its line."""

    message: str
    line: int | None  # in the statement file


class _Collector(logging.Handler):
    def __init__(self, tex: TeX) -> None:
        super().__init__(logging.WARNING)
        self.tex = tex
        self.complaints: list[Complaint] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line: int | None = int(self.tex.lineNumber) - 1
        except Exception:  # plasTeX has no input open at the end of the parse
            line = None
        message = record.getMessage().strip()
        if line is not None and line < 1:
            line = None
        self.complaints.append(Complaint(message, line))

    def emit_text(self, message: str) -> None:
        self.emit(logging.makeLogRecord({"msg": message, "levelno": logging.ERROR}))


def parse(text: str, directory: Path | None = None) -> tuple[Any, list[Complaint]]:
    """The plasTeX document of a statement body (None when it never finished), and the
    complaints made parsing it. Files (``\\input``, ``\\include``, local packages) are
    looked up in ``directory`` only: never elsewhere on the disk, never through a
    ``kpsewhich`` process. An endless expansion (``\\def\\x{\\x}\\x``) is cut off after
    :data:`MAX_TOKENS` tokens or :data:`MAX_SECONDS`."""
    with _LOCK:
        tex = TeX()
        tex.kpsewhich = partial(_find, directory)
        budget = _Budget(time.monotonic() + MAX_SECONDS)
        tex.itertokens = partial(_bounded, tex.itertokens, budget)
        tex.ownerDocument.context.importMacros(MACROS)
        tex.input(PREAMBLE + "\n" + text + "\n\\end{document}\n")
        collector = _Collector(tex)
        saved = _silence(collector)
        try:
            with _alarm(MAX_SECONDS):
                document = tex.parse()
        except _Endless as exc:  # plasTeX logged it on its way out; report it once
            collector.complaints = [c for c in collector.complaints if str(exc) not in c.message]
            collector.emit_text(str(exc))
            document = None
        except (Exception, RecursionError) as exc:  # plasTeX fails on some broken input
            collector.emit_text(f"{PARSE_FAILED} ({type(exc).__name__}: {str(exc)[:200]})")
            document = None
        finally:
            _restore(saved)
    return document, collector.complaints


class _Endless(Exception):
    pass


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """In the main thread, a hard deadline: SIGALRM interrupts plasTeX's Python wherever it
    is (a macro that doubles its argument does ever more work between two tokens). Other
    threads rely on the token budget alone."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise _Endless(
            f"the statement was still expanding after {seconds:g} s (an endless macro?); stopped"
        )

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class _Budget:
    """Tokens one parse has taken, across all of plasTeX's nested token streams."""

    deadline: float
    used: int = 0


def _bounded(tokens: Callable[[], Iterator[Any]], budget: _Budget) -> Iterator[Any]:
    """plasTeX's token stream, stopped when a statement expands without end."""
    for token in tokens():
        budget.used += 1
        if budget.used > MAX_TOKENS or (
            budget.used % 256 == 0 and time.monotonic() > budget.deadline
        ):
            raise _Endless(
                f"the statement was still expanding after {budget.used} tokens "
                "(an endless macro?); stopped"
            )
        yield token


def _find(directory: Path | None, name: str) -> str:
    found = resolve(directory, name, (".tex",)) if directory is not None else None
    if found is None:
        raise FileNotFoundError(f"{name}: only files beside the statement can be read")
    return str(directory / found) if directory is not None else found


def _silence(
    collector: logging.Handler,
) -> list[tuple[logging.Logger, list[logging.Handler], bool]]:
    saved = []
    for logger in list(plastex_logging._loggers.values()):
        saved.append((logger, list(logger.handlers), logger.propagate))
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.addHandler(collector)
        logger.propagate = False
    return saved


def _restore(saved: list[tuple[logging.Logger, list[logging.Handler], bool]]) -> None:
    for logger, handlers, propagate in saved:
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        for handler in handlers:
            logger.addHandler(handler)
        logger.propagate = propagate


def macro_uses(text: str, macro: str) -> list[tuple[str, int]]:
    """Arguments and lines of every ``\\macro{arg}`` (or ``\\macro`` without one)."""
    clean = strip_comments(text)
    found = []
    for match in re.finditer(r"\\" + macro + r"(?![A-Za-z@])\s*(?:\{([^{}]*)\})?", clean):
        found.append((match.group(1) or "", clean.count("\n", 0, match.start()) + 1))
    return found
