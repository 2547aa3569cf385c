"""What verifyproblem is asked to do, apart from which packages: a module of its own so
that the command line can build it without importing the judge."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from problemtools_py.cpus import usable_cores
from problemtools_py.findings import Finding
from problemtools_py.rulesets import Judge

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from problemtools_py.sandbox.pool import SandboxPool

Progress = Callable[[str, int], None]  # (what is running, how many steps finished)
# work on a package's directory before it is loaded (--generate: generatedata's, given by
# the command line, so that verification never imports another product)
Prepare = Callable[[Path, "SandboxPool"], list[Finding]]
RUNNING_PARTS = ("validators", "graders", "submissions")  # the parts that run programs
CHECK_PARTS = ("config", "statement", "data")  # the others: they run no program


def needs_sandboxes(parts: Sequence[str], run_programs: bool) -> bool:
    """Whether a verification of ``parts`` runs programs (so needs sandbox servers)."""
    return run_programs and any(p in RUNNING_PARTS for p in parts)


@dataclass(frozen=True)
class Options:
    """What verifyproblem was asked to do: jobs, limits, filters and extras."""

    jobs: int = field(default_factory=usable_cores)
    fixed_time_limit: float | None = None  # -t: seconds
    submissions: re.Pattern[str] | None = None  # -s: which submissions
    data: re.Pattern[str] | None = None  # -d: which test cases
    timing_cap: float = 60.0  # CPU seconds allowed while timing the accepted submissions
    visualize: Path | None = None  # --visualize: where the visualizers' images go
    prepare: Prepare | None = None  # --generate: make stale test data first
    constraints: bool = False  # --constraints: the bounds validators check, and coverage
    all_cases: bool = False  # --all-cases: no stop at a pass-fail submission's first failure
    python: str | None = None  # --python: the interpreter (or environment) Python runs with
    judge: Judge = Judge.KATTIS  # --judge: whose extensions are accepted, whose rules judge
    sanitizer: bool = False  # --sanitizer: C and C++ built with ASan and UBSan

    def takes_submission(self, rel: str) -> bool:
        """Whether -s lets the submission at ``rel`` (its path in the package) be judged."""
        return self.submissions is None or self.submissions.search(rel) is not None

    def takes_case(self, name: str) -> bool:
        """Whether -d lets programs run on the test case ``name`` (e.g. ``secret/03``)."""
        return self.data is None or self.data.search(name) is not None
