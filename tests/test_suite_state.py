"""The suite passes however it was started (issue 63): started as a script's background
job, with SIGINT ignored (SIG_IGN survives exec), its Ctrl-C tests and its python3
reference runs failed, since every child inherited the ignored SIGINT. conftest gives the
test process a terminal's dispositions; here a Ctrl-C test runs in a pytest started so."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_a_suite_started_with_sigint_ignored_still_passes_its_ctrl_c_tests() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/sandbox/test_stopping.py", "-k", "grace or handler_replaces"],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    assert "4 passed" in done.stdout, done.stdout[-3000:]
