"""Findings (what a check reports) and reports (what a command returns).

A :class:`ProblemReport` gathers the findings for one package; a :class:`RunReport`
owns the process exit code, so it is decided in exactly one place."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field

from problemtools_py.exitcodes import ExitCode as ExitCode  # (re-exported)
from problemtools_py.verdicts import Verdict

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    """One thing a check found. ``path`` is relative to the problem root when inside it."""

    severity: Severity
    check: str
    message: str
    path: str | None = None
    line: int | None = None
    # the judge whose extension of the format this is ("domjudge", "bapctools"; several:
    # "domjudge,bapctools"), where the format's text alone refuses it: a warning when
    # verifying by that judge's rules (see model.conventions.as_judged)
    convention: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The finding as every ``--json`` output writes it (``convention`` only when the
        finding is one)."""
        found = {**asdict(self), "severity": self.severity.value}
        if self.convention is None:
            del found["convention"]
        return found

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Finding:
        return cls(
            Severity(data["severity"]),
            data["check"],
            data["message"],
            data["path"],
            data["line"],
            data.get("convention"),
        )


def error(check: str, message: str, path: str | None = None, line: int | None = None) -> Finding:
    return Finding(Severity.ERROR, check, message, path, line)


def warning(check: str, message: str, path: str | None = None, line: int | None = None) -> Finding:
    return Finding(Severity.WARNING, check, message, path, line)


def count(n: int, word: str) -> str:
    """``1 error``, ``2 errors``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class Cell:
    """One cell of the results table: a submission on one test group."""

    verdict: Verdict  # the first that is not AC, else AC
    cpu: float  # the largest CPU time of a case
    cases: int


@dataclass(frozen=True)
class ConstraintRow:
    """One bound an input validator checks, over every test case (``--constraints``)."""

    validator: str
    name: str
    low: float
    high: float
    seen_low: float | None  # None: no case read it
    seen_high: float | None
    reached_low: bool
    reached_high: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SubmissionRow:
    """One row of the results table."""

    submission: str  # its path in the package
    expected: str | None  # what it claims, and where that comes from
    compile_error: str | None
    verdict: Verdict | None  # the final verdict (CE when it did not compile)
    score: float | None
    max_cpu: float
    groups: dict[str, Cell] = field(default_factory=dict)
    cases: dict[str, Cell] = field(default_factory=dict)  # per test case, as run

    def to_json(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "verdict": self.verdict.value if self.verdict is not None else None,
            "cases": {
                name: {**asdict(cell), "verdict": cell.verdict.value}
                for name, cell in self.cases.items()
            },
            "groups": {
                name: {**asdict(cell), "verdict": cell.verdict.value}
                for name, cell in self.groups.items()
            },
        }


@dataclass
class ProblemReport:
    """Findings for one problem package, in the order the checks produced them."""

    name: str
    path: str
    format_version: str | None = None
    parts: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    time_limit: float | None = None  # derived or fixed, when submissions ran
    time_limit_source: str | None = None
    time_limit_hard: float | None = None  # the limit runs were stopped at (the margin)
    submissions: list[SubmissionRow] = field(default_factory=list)  # the results table
    constraints: list[ConstraintRow] = field(default_factory=list)  # --constraints
    interrupted: bool = False  # Ctrl-C: the findings of what had finished, no more
    # CPU seconds of the programs run while it was verified (compilers, validators,
    # submissions: see sandbox.results.spent_cpu), the work no scheduling avoids
    runs_cpu: float = 0.0

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.WARNING)


@dataclass
class RunReport:
    """All problems a command looked at. Owns the exit code."""

    problems: list[ProblemReport] = field(default_factory=list)
    werror: bool = False
    interrupted: bool = False  # Ctrl-C: the problems it had looked at, the last one in part

    @property
    def errors(self) -> int:
        return sum(p.errors for p in self.problems)

    @property
    def warnings(self) -> int:
        return sum(p.warnings for p in self.problems)

    def failed(self, problem: ProblemReport) -> bool:
        return problem.errors > 0 or (self.werror and problem.warnings > 0)

    @property
    def exit_code(self) -> ExitCode:
        if self.interrupted:
            return ExitCode.INTERRUPTED
        if any(self.failed(p) for p in self.problems):
            return ExitCode.FINDINGS
        return ExitCode.CLEAN
