"""What verifyproblem is asked to do, apart from which packages: a module of its own so
that the command line can build it without importing the judge."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from problemtools_py.findings import Finding
from problemtools_py.judging.policy import Policy, Progress

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from problemtools_py.sandbox.pool import SandboxPool

# work on a package's directory before it is loaded (--generate: generatedata's, given by
# the command line, so that verification never imports another product)
Prepare = Callable[[Path, "SandboxPool"], list[Finding]]
RUNNING_PARTS = ("validators", "graders", "submissions")  # the parts that run programs
CHECK_PARTS = ("config", "statement", "data")  # the others: they run no program


def needs_sandboxes(parts: Sequence[str], run_programs: bool) -> bool:
    """Whether a verification of ``parts`` runs programs (so needs sandbox servers)."""
    return run_programs and any(p in RUNNING_PARTS for p in parts)


@dataclass(frozen=True)
class Options(Policy):
    """What verifyproblem was asked to do: how programs are judged (the Policy's fields:
    -j, -t, -d, --all-cases, --python, --judge, --sanitizer, --visualize) and what only
    verification asks (which submissions, --generate, --constraints)."""

    submissions: re.Pattern[str] | None = None  # -s: which submissions
    prepare: Prepare | None = None  # --generate: make stale test data first
    constraints: bool = False  # --constraints: the bounds validators check, and coverage

    def takes_submission(self, rel: str) -> bool:
        """Whether -s lets the submission at ``rel`` (its path in the package) be judged."""
        return self.submissions is None or self.submissions.search(rel) is not None


__all__ = ["Options", "Policy", "Prepare", "Progress"]
