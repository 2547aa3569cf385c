"""How a package's programs are judged (a frozen :class:`Policy`): a module of its own,
light, so that a command line builds one without importing the engine."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from problemtools_py.cpus import usable_cores
from problemtools_py.rulesets import Ruleset

Progress = Callable[[str, int], None]  # (what is running, how many steps finished)


class RunUntil(enum.Enum):
    """How far a submission's cases run: to its first failure (a pass-fail problem's
    verdict is known then; a scoring problem runs every case whatever this says), or
    every case (verifyproblem --all-cases, auditdata, a pass rate)."""

    FIRST_FAILURE = "first-failure"
    EVERY_CASE = "every-case"


@dataclass(frozen=True)
class Policy:
    """How a package's programs are judged: what every product sets (verifyproblem's
    Options hold one, with what only it asks)."""

    jobs: int = field(default_factory=usable_cores)
    fixed_time_limit: float | None = None  # -t: seconds
    data: re.Pattern[str] | None = None  # -d: which test cases
    timing_cap: float = 60.0  # CPU seconds allowed while timing the accepted submissions
    visualize: Path | None = None  # --visualize: where the visualizers' images go
    run_until: RunUntil = RunUntil.FIRST_FAILURE
    python: str | None = None  # the interpreter (or environment) Python runs with
    ruleset: Ruleset = Ruleset.KATTIS  # whose extensions are accepted, whose rules judge
    sanitizer: bool = False  # C and C++ built with ASan and UBSan

    def takes_case(self, name: str) -> bool:
        """Whether -d lets programs run on the test case ``name`` (e.g. ``secret/03``)."""
        return self.data is None or self.data.search(name) is not None

    @property
    def every_case(self) -> bool:
        return self.run_until is RunUntil.EVERY_CASE
