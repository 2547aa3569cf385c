"""pystart.compile_quietly (issue 60), in an interpreter started as the jail's init is
(`python3 -I -S`, python3's own warning filters): a compile warning python3 would show
makes the program compile itself in its own run (a SyntaxError there); one python3
ignores (an invalid escape's DeprecationWarning, in 3.11) changes nothing, so such a
program keeps the init's compiled code; the filters come back as they were."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys, warnings
sys.path.insert(0, sys.argv[1])
from problemtools_py.sandbox.pystart import compile_quietly
before = warnings.filters[:]
try:
    compile_quietly(sys.argv[2].encode(), "/prog/main.py")
    said = "compiled"
except SyntaxError:
    said = "compiles itself"
print(said, warnings.filters == before)
"""


def _python3_stderr(source: str) -> str:
    """What a clean python3 prints as it compiles ``source`` (nothing runs)."""
    code = f"compile({source!r}, 'main.py', 'exec')"
    return subprocess.run([sys.executable, "-I", "-c", code], capture_output=True,
                          text=True, check=True).stderr  # fmt: skip


@pytest.mark.parametrize("source", ["if x is 5:\n    pass\n", 'x = "\\d"\n', "x = 1\n"])
def test_a_warning_python3_shows_is_an_error_and_no_other(source: str) -> None:
    shown = "Warning" in _python3_stderr(source)
    found = subprocess.run([sys.executable, "-I", "-S", "-c", PROBE, str(ROOT), source],
                           capture_output=True, text=True, check=True)  # fmt: skip
    expected = ["compiles", "itself", "True"] if shown else ["compiled", "True"]
    assert found.stdout.split() == expected
    assert found.stderr == ""
    assert shown is ("is 5" in source)
