"""The package stays mypy-strict and ruff-clean (its code ruff-formatted too): CI fails
otherwise."""

from __future__ import annotations

import shutil
import subprocess
import sys

from helpers.packages import REPO


def tool(name: str) -> str:
    found = shutil.which(name, path=str(REPO / ".venv" / "bin")) or shutil.which(
        name, path=str(__import__("pathlib").Path(sys.executable).parent))
    assert found, f"{name} is not installed (run scripts/setup.sh --dev)"
    return found


def test_ruff_is_clean() -> None:
    proc = subprocess.run([tool("ruff"), "check", "problemtools_py", "tests", "bench"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_package_is_ruff_formatted() -> None:
    proc = subprocess.run([tool("ruff"), "format", "--check", "problemtools_py"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_is_clean() -> None:
    proc = subprocess.run([tool("mypy")], cwd=REPO, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
