"""Our sample packages, and what tests do with them and with peer tools' output."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from problemtools_py.findings import ProblemReport
from problemtools_py.verify.verifier import verify_problem

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_problems"
SAMPLE_NAMES = sorted(p.name for p in SAMPLES.iterdir() if (p / "problem.yaml").is_file())


def run_python(code: str, *args: str, check: bool = True, timeout: float = 60,
               **popen: Any) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """``python -c code args`` in a new interpreter (this one's), its output captured as
    text: for what only shows from outside a process (its exit, its children, signals,
    what it imports)."""
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, check=check, **popen)  # fmt: skip



def verify(path: Path, parts: tuple[str, ...] | None = None) -> ProblemReport:
    return verify_problem(path) if parts is None else verify_problem(path, parts)


def describe(report: ProblemReport) -> str:
    return "\n".join(
        f"{f.path}:{f.line}: {f.severity.value}: {f.message} [{f.check}]" for f in report.findings
    )


ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def plain(text: str) -> str:
    """A peer tool's output without terminal colour codes."""
    return ANSI.sub("", text)


def peer_env(**extra: str) -> dict[str, str]:
    """The environment to run a peer tool in: BAPCtools keeps its colour codes when `CI`
    is set (as it is on CI machines), so those variables are left out."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITLAB_CI")}
    return {**env, "NO_COLOR": "1", **extra}
