"""Python 2 references made Python 3 with 2to3 (the card's v1.1 ``py2to3`` rows), by
fissix: lib2to3 kept up outside the standard library, which drops lib2to3 in 3.13. The
conversion parses the text and never runs it; a program it cannot parse is left out."""

from __future__ import annotations

import threading

from problemtools_py.upstream.problem import MAX_REFERENCE_BYTES

_local = threading.local()  # (a RefactoringTool per thread: it keeps state per call)


def to_python3(code: str) -> str | None:
    """``code`` as 2to3 rewrites it, or None when it is no Python 2 it can parse."""
    if len(code) > MAX_REFERENCE_BYTES:
        return None
    tool = getattr(_local, "tool", None)
    if tool is None:
        from fissix.refactor import (
            RefactoringTool,
            get_fixers_from_package,
        )

        tool = _local.tool = RefactoringTool(get_fixers_from_package("fissix.fixes"))
    text = code if code.endswith("\n") else code + "\n"
    try:
        return str(tool.refactor_string(text, "<reference>"))
    except Exception:  # (fissix's parse errors have no common base; RecursionError too)
        return None
