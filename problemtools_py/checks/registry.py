"""The registry of checks: each belongs to one part (``-p/--parts``). A part's modules are
imported when the part is first asked for (``checks_of``), so that ``-p config`` does not
load what renders statements; within a part, checks keep the order of ``MODULES``."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from problemtools_py.findings import Finding
    from problemtools_py.model.problem import Problem

PARTS = ("config", "statement", "data", "validators", "graders", "submissions")
# Every check module, in report order, with the parts it registers checks for.
MODULES: dict[str, tuple[str, ...]] = {
    "attachments": ("config", "statement"),
    "config": ("config",),
    "encoding": ("config", "statement", "data"),
    "hygiene": ("data",),
    "layout": ("config", "data"),
    "programs": ("validators", "graders"),
    "statements": ("statement",),
    "static_validation": ("validators",),
    "submissions": ("submissions",),
    "testdata": ("data",),
    "testdata_modern": ("data",),
}

Check = Callable[["Problem"], Iterable["Finding"]]
REGISTRY: dict[str, list[Check]] = {part: [] for part in PARTS}


def check(part: str) -> Callable[[Check], Check]:
    """Register a check function under ``part``."""

    def register(func: Check) -> Check:
        REGISTRY[part].append(func)
        return func

    return register


def checks_of(part: str) -> list[Check]:
    """The checks of ``part``, their modules imported first, in report order."""
    order = list(MODULES)
    for name in order:
        if part in MODULES[name]:
            importlib.import_module(f"problemtools_py.checks.{name}")
    rank = {f"problemtools_py.checks.{name}": i for i, name in enumerate(order)}
    indexed = list(enumerate(REGISTRY[part]))
    indexed.sort(key=lambda item: (rank.get(item[1].__module__, len(order)), item[0]))
    return [func for _, func in indexed]
