"""The problem model: a package directory loaded once into frozen dataclasses.

``load_problem``, ``Problem`` and ``FormatVersion`` are imported on first use, so that a
module needing one small rule of the model (a sidecar's name) does not load it all."""

from __future__ import annotations

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any

    from problemtools_py.model.loader import load_problem
    from problemtools_py.model.problem import FormatVersion, Problem

__all__ = ["FormatVersion", "Problem", "load_problem"]


def __getattr__(name: str) -> Any:
    if name == "load_problem":
        from problemtools_py.model.loader import load_problem

        return load_problem
    if name in ("Problem", "FormatVersion"):
        from problemtools_py.model import problem

        return getattr(problem, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
