"""Where problemtools_py keeps what it can reuse between runs (builds, verdicts, schema
results, generation records): ``$XDG_CACHE_HOME/problemtools_py`` or ``~/.cache/...``."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

_used: dict[Path, bool] = {}  # (each cache's answer in this process: see used_before)
_used_lock = threading.Lock()


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "problemtools_py"


def bound(env: str, default: int) -> int:
    """How many entries a cache keeps: the environment variable ``env`` when it is a
    count, else ``default``."""
    value = os.environ.get(env, "")
    return int(value) if value.isdigit() else default


def used_before() -> bool:
    """Whether an earlier process used this cache (its stamp, ``used``, was there when this
    process first asked), marking it used for the processes after. What pays for itself
    only over many compilations (g++'s precompiled headers, javac's class-data archive) is
    worth making on a machine that keeps its cache, not on one whose cache is new each
    time (a CI runner), where one verification would pay for it and nothing use it again."""
    root = cache_root()
    with _used_lock:
        if root not in _used:
            stamp = root / "used"
            _used[root] = stamp.exists()
            if not _used[root]:
                with contextlib.suppress(OSError):
                    root.mkdir(parents=True, exist_ok=True)
                    stamp.touch()
        return _used[root]
