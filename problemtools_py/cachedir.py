"""Where problemtools_py keeps what it can reuse between runs (builds, verdicts, schema
results, generation records): ``$XDG_CACHE_HOME/problemtools_py`` or ``~/.cache/...``."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "problemtools_py"


def bound(env: str, default: int) -> int:
    """How many entries a cache keeps: the environment variable ``env`` when it is a
    count, else ``default``."""
    value = os.environ.get(env, "")
    return int(value) if value.isdigit() else default
