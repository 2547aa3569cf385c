"""The registry of checks: each belongs to one part (``-p/--parts``)."""

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
