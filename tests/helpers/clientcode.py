"""Trainers' own client code, run without torch (issue 43): scripts/setup.sh --dev puts
verl's and TRL's wheels, without their dependencies, in .venv/clients/. A file that needs
only the standard library is loaded whole; from one that imports torch at the top, the
named functions (``name``, or ``Class.method``) are taken as the project wrote them
(parsed from its source) and run in a module holding what they use."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

CLIENTS = Path(sys.prefix, "clients")
ROOTS = {"verl": CLIENTS / "verl/verl", "trl": CLIENTS / "trl/trl"}


def client_file(rel: str) -> Path:
    """``verl/utils/...`` or ``trl/trainer/...``: the file in that client's wheel."""
    project, _, inner = rel.partition("/")
    path = ROOTS[project] / inner
    assert path.is_file(), f"{rel} is not in {CLIENTS} (scripts/setup.sh --dev puts it there)"
    return path


def load(rel: str) -> ModuleType:
    """A client module that imports only the standard library (and requests)."""
    path = client_file(rel)
    spec = importlib.util.spec_from_file_location(f"client_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _definitions(tree: ast.Module, names: tuple[str, ...]) -> list[ast.stmt]:
    found: list[ast.stmt] = []
    for name in names:
        owner, _, method = name.rpartition(".")
        body: list[ast.stmt] = tree.body
        if owner:
            classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner]
            body = classes[0].body if classes else []
        found += [n for n in body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                  and n.name == method]  # fmt: skip
    return found


def functions(rel: str, names: tuple[str, ...], namespace: dict[str, Any]) -> dict[str, Any]:
    """The definitions ``names`` of a client's file, executed with ``namespace`` as their
    globals, in a module of their own in sys.modules (so that they pickle by name, into a
    forked process pool, as the client's own do)."""
    tree = ast.parse(client_file(rel).read_text(encoding="utf-8"))
    found = _definitions(tree, names)
    assert len(found) == len(names), f"{rel} lacks some of {names}"
    module = ModuleType("client_" + rel.replace("/", "_").removesuffix(".py"))
    module.__dict__.update(namespace)
    sys.modules[module.__name__] = module
    code = ast.Module(body=found, type_ignores=[])
    exec(compile(code, str(client_file(rel)), "exec"), module.__dict__)
    return module.__dict__
