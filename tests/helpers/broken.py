"""Data-driven broken packages: one sample, one change, one expected finding."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from helpers.packages import describe, verify
from problemtools_py.findings import Severity

E, W = Severity.ERROR, Severity.WARNING


@dataclass(frozen=True)
class Broken:
    id: str
    sample: str
    build: Callable[[Path], None]
    severity: Severity
    check: str
    text: str
    path: str | None = None
    line: int | None = None
    dest: str | None = None



def assert_reported(broken: Broken, copy_sample: Callable[..., Path]) -> None:
    """Build the broken copy, verify it, and find the expected finding exactly."""
    root = copy_sample(broken.sample, broken.dest)
    broken.build(root)
    report = verify(root)
    matches = [
        f
        for f in report.findings
        if f.severity is broken.severity
        and f.check == broken.check
        and broken.text in f.message
        and (broken.path is None or f.path == broken.path)
        and (broken.line is None or f.line == broken.line)
    ]
    assert matches, (
        f"expected {broken.severity.value} [{broken.check}] '{broken.text}' at "
        f"{broken.path}:{broken.line}; got:\n{describe(report)}"
    )
