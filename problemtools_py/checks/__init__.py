"""Checks: small functions that read the problem model and yield findings.

Each check belongs to one part (``-p/--parts``). Importing this package registers them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from problemtools_py.findings import Finding
from problemtools_py.model.problem import Problem

PARTS = ("config", "statement", "data", "validators", "graders", "submissions")

Check = Callable[[Problem], Iterable[Finding]]
REGISTRY: dict[str, list[Check]] = {part: [] for part in PARTS}


def check(part: str) -> Callable[[Check], Check]:
    """Register a check function under ``part``."""

    def register(func: Check) -> Check:
        REGISTRY[part].append(func)
        return func

    return register


# Registration happens on import; the order here is the order of the report.
from problemtools_py.checks import (  # noqa: E402
    config,
    encoding,
    layout,
    programs,
    statements,
    submissions,
    testdata,
    testdata_modern,
)

__all__ = [
    "PARTS",
    "REGISTRY",
    "check",
    "config",
    "encoding",
    "layout",
    "programs",
    "statements",
    "submissions",
    "testdata",
    "testdata_modern",
]
