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


INIT_SIDE = ["jail", "zygote", "inside", "counters", "leannative", "inprocess", "isolation"]


def _imported_in_functions(module: str) -> set[str]:
    """The package modules ``module`` imports inside its functions (not at its top)."""
    tree = ast.parse((ROOT / "problemtools_py" / "sandbox" / f"{module}.py").read_text())
    found: set[str] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("problemtools_py"):
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_a_forked_init_imports_nothing_the_server_has_not() -> None:
    """A held jail's init is a fork of its server: a package module the init's code
    imports for itself is loaded anew in every jail (leannative cost each ~1.3 ms of CPU
    and ~350 copied pages). Whatever the init side imports in a function, the server has
    loaded before it forks."""
    wanted = set().union(*(_imported_in_functions(m) for m in INIT_SIDE))
    assert "problemtools_py.sandbox.leannative" in wanted  # (the check sees real imports)
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "import problemtools_py.sandbox.server; print(sorted(sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-I", "-c", probe, str(ROOT)],
        capture_output=True, text=True, check=True, timeout=60,
    )
    loaded = set(ast.literal_eval(result.stdout))
    assert sorted(name for name in wanted if name not in loaded) == []


def test_the_server_starts_without_typing_or_dataclasses() -> None:
    """A new server is a new interpreter at the start of every command that runs programs:
    what it imports is its start. typing (~4 ms) and dataclasses with inspect (~8 ms) are
    only for annotations and records, which the sandbox has lighter ways to give."""
    code = ("import sys\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "import problemtools_py.sandbox.server\n"
            "print(sorted(m for m in ('typing', 'dataclasses', 'inspect') if m in sys.modules))")  # fmt: skip
    result = subprocess.run([sys.executable, "-S", "-I", "-c", code, str(ROOT)],
                            capture_output=True, text=True, check=True, timeout=60)  # fmt: skip
    assert result.stdout.strip() == "[]"
