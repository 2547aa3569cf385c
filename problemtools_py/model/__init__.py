"""The problem model: a package directory loaded once into frozen dataclasses."""

from __future__ import annotations

from problemtools_py.model.loader import load_problem
from problemtools_py.model.problem import FormatVersion, Problem

__all__ = ["FormatVersion", "Problem", "load_problem"]
