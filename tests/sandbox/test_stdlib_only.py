"""The sandbox's server and the lean init run on the interpreter programs run with, under
``python3 -S -I``: they may load the standard library and this package only."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
before = set(sys.modules)
import {module}
loaded = sorted(set(sys.modules) - before)
stdlib = set(sys.stdlib_module_names)
outside = [m for m in loaded if m.split(".")[0] not in stdlib and m.split(".")[0] != "problemtools_py"]
ours = [m for m in loaded if m.startswith("problemtools_py.") and not m.startswith("problemtools_py.sandbox")]
print(repr((outside, ours)))
"""


@pytest.mark.parametrize("module", [
    "problemtools_py.sandbox.server",
    "problemtools_py.sandbox.zygote",
    "problemtools_py.sandbox.client",
])
def test_only_the_standard_library_and_the_sandbox_load(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-S", "-I", "-c", PROBE.format(module=module), str(ROOT)],
        capture_output=True, text=True, check=True, timeout=60,
    )
    outside, ours = ast.literal_eval(result.stdout)
    assert outside == [], f"{module} loads modules outside the standard library"
    assert ours == [], f"{module} loads problemtools_py modules outside the sandbox"
