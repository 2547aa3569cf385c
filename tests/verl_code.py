"""verl 0.9.1's own code, run without torch (issue 43): scripts/setup.sh --dev puts verl's
wheel, without its dependencies, in .venv/clients/verl. A file that needs only the
standard library is loaded whole; from one that imports torch at the top, the named
functions are taken as verl wrote them (parsed from its source) and run in a namespace
holding what they use."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

VERL = Path(sys.prefix, "clients/verl/verl")


def verl_file(rel: str) -> Path:
    path = VERL / rel
    assert path.is_file(), f"verl 0.9.1 is not in {VERL.parent} (scripts/setup.sh --dev puts it there)"
    return path


def load(rel: str) -> ModuleType:
    """A verl module that imports only the standard library (and requests)."""
    path = verl_file(rel)
    spec = importlib.util.spec_from_file_location(f"verl_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def functions(rel: str, names: tuple[str, ...], namespace: dict[str, Any]) -> dict[str, Any]:
    """The top-level definitions ``names`` of a verl file, executed with ``namespace`` as
    their globals, in a module of their own in sys.modules (so that they pickle by name,
    into a forked process pool, as verl's own do)."""
    tree = ast.parse(verl_file(rel).read_text(encoding="utf-8"))
    found = [node for node in tree.body
             if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in names]  # fmt: skip
    assert {node.name for node in found} == set(names), f"{rel} lacks some of {names}"
    module = ModuleType("verl_code_" + rel.replace("/", "_").removesuffix(".py"))
    module.__dict__.update(namespace)
    sys.modules[module.__name__] = module
    code = ast.Module(body=list(found), type_ignores=[])
    exec(compile(code, str(verl_file(rel)), "exec"), module.__dict__)
    return module.__dict__
