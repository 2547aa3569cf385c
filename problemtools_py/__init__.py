"""problemtools_py: tools for Kattis-format programming-contest problem packages."""

from __future__ import annotations

__version__ = "0.1.0"
