"""``python -m problemtools_py DIR...`` runs verifyproblem."""

from __future__ import annotations

from problemtools_py.cli.console import verifyproblem

verifyproblem()
