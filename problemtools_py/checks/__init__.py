"""Checks: small functions that read the problem model and yield findings.

Each check belongs to one part (``-p/--parts``); ``checks_of(part)`` imports the modules
of a part (they register their checks on import) and gives its checks in report order."""

from __future__ import annotations

from problemtools_py.checks.registry import MODULES, PARTS, REGISTRY, Check, check, checks_of

__all__ = ["MODULES", "PARTS", "REGISTRY", "Check", "check", "checks_of"]
