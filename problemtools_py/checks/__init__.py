"""Checks: small functions that read the problem model and yield findings.

Each check belongs to one part (``-p/--parts``). Importing this package registers them all."""

from __future__ import annotations

# Registration happens on import; the order here is the order of the report.
from problemtools_py.checks import (
    attachments,
    config,
    encoding,
    hygiene,
    layout,
    programs,
    statements,
    static_validation,
    submissions,
    testdata,
    testdata_modern,
)
from problemtools_py.checks.registry import PARTS, REGISTRY, Check, check

__all__ = [
    "PARTS",
    "REGISTRY",
    "Check",
    "attachments",
    "check",
    "config",
    "encoding",
    "hygiene",
    "layout",
    "programs",
    "statements",
    "static_validation",
    "submissions",
    "testdata",
    "testdata_modern",
]
