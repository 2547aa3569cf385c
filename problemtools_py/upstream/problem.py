"""One upstream row, read: what the curation needs of every source, in one form."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

Tests = tuple[tuple[str, str], ...]
MAX_REFERENCES = 16  # references tried per problem (TACO rows carry hundreds)
MAX_REFERENCE_BYTES = 1 << 20  # a longer "solution" is no program we run
MAX_WRONG = 8  # known-wrong programs kept per problem


class UnreadableRow(ValueError):
    """A row that is not in its source's layout: why, for drops.jsonl."""


class NotSelected(ValueError):
    """A row outside the card's selection of its source: why."""


class NotValidated(ValueError):
    """A row whose source does not vouch for its tests (Code-Contests-Plus' rates): why."""


@dataclass(frozen=True)
class Upstream:
    """A problem as a source publishes it: its statement, its tests (stdin, stdout) or, for
    a call-based problem, the function they call (``call``; such a row is no stdin/stdout
    row of the card), its Python references as given, the upstream limits and where it
    came from (``origin``: the card's ``origin_json`` starts from it)."""

    source: str  # "taco", "primeintellect", ... (the card's origin "source")
    key: str  # where the row is: file name and row index
    statement: str
    tests: Tests
    call: str | None = None
    references: tuple[str, ...] = ()
    time_limit_s: float | None = None  # upstream, in seconds (None: not given)
    memory_mb: int | None = None
    origin: dict[str, Any] = field(default_factory=dict)
    checker: str | None = None  # a testlib checker's source, when the source has one
    wrong: tuple[tuple[str, str], ...] = ()  # known-wrong programs: (language code, source)


_QUANTITY = re.compile(
    r"^\s*(\d+(?:\.\d+)?|\.\d+)\s*(seconds?|secs?|s|milliseconds?|ms|"
    r"megabytes?|mb|mib|kilobytes?|kb|kib|gigabytes?|gb|gib|bytes?)?\s*$",
    re.IGNORECASE,
)
_SCALE = {"ms": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3}
_MB = {
    "kb": 1 / 1024,
    "kib": 1 / 1024,
    "kilobyte": 1 / 1024,
    "kilobytes": 1 / 1024,
    "gb": 1024,
    "gib": 1024,
    "gigabyte": 1024,
    "gigabytes": 1024,
    "byte": 1 / (1 << 20),
    "bytes": 1 / (1 << 20),
}


def limit_seconds(value: object) -> float | None:
    """An upstream time limit in seconds: a number (seconds), or TACO's and Codeforces'
    text (``"2 seconds"``, ``"1.5 s"``, ``"500 ms"``); None when absent or unreadable
    (``"None"``, as TACO writes an unknown limit)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value) if 0 < value < 1e6 else None
    match = _QUANTITY.match(str(value))
    if match is None:
        return None
    seconds = float(match.group(1)) * _SCALE.get((match.group(2) or "s").lower(), 1.0)
    return seconds if 0 < seconds < 1e6 else None


def limit_mb(value: object) -> int | None:
    """An upstream memory limit in MiB: a number (MiB) or text (``"256 megabytes"``)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return max(1, round(value)) if 0 < value < 1 << 24 else None
    match = _QUANTITY.match(str(value))
    if match is None:
        return None
    mb = float(match.group(1)) * _MB.get((match.group(2) or "mb").lower(), 1.0)
    return max(1, round(mb)) if 0 < mb < 1 << 24 else None


def python_references(solutions: object) -> tuple[str, ...]:
    """The solutions a row gives (a list of programs), each a string under the bound,
    the first MAX_REFERENCES; empty and duplicate ones left out."""
    if not isinstance(solutions, list):
        return ()
    kept: list[str] = []
    for code in solutions:
        usable = isinstance(code, str) and code.strip() and len(code) <= MAX_REFERENCE_BYTES
        if usable and code not in kept:
            kept.append(code)
        if len(kept) == MAX_REFERENCES:
            break
    return tuple(kept)
