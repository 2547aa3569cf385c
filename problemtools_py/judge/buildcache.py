"""A bound on the build cache (``cache/builds``): every program compiled is kept by its
content hash, and a grader compiling model-written C++ by the million would fill the disk
(~32 KB and a directory each). A process that publishes builds drops, on its first and
then every EVERY-th new one, the least recently used builds beyond KEEP (default 20,000,
~0.6 GB of C++ programs; ``PROBLEMTOOLS_PY_KEEP_BUILDS`` sets another), never one used in
the last GRACE seconds: a build is used (its mtime set) when it is made or found, and
copied out or run within seconds, so no process loses one it is about to use. A build
goes by a rename out of sight first, then is deleted; a process that finds it gone
compiles it again. The scratch of a build a killed process left behind goes too, once
as old."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

from problemtools_py.cachedir import bound

# Changed whenever the judge would build a program differently from the same inputs, so
# that no build cached before is reused: 2, a precompiled header's directory holds the
# header forwarding to the system's (see pch: a second #include of it failed before); 3,
# a Java or Scala program runs the class its source says holds main (judge/javaname).
RULES = "3"
KEEP = 20_000
KEEP_ENV = "PROBLEMTOOLS_PY_KEEP_BUILDS"
GRACE = 600.0  # seconds since its last use before a build may go
EVERY = 200  # new builds of a process between two checks
_lock = threading.Lock()
_made = [0]  # new builds published by this process


def used(build: Path) -> None:
    """Note that ``build`` was just made or found (its mtime: now)."""
    with contextlib.suppress(OSError):
        os.utime(build)


def published(root: Path) -> None:
    """A new build was published under ``root``: on the first and every EVERY-th, prune."""
    with _lock:
        _made[0] += 1
        due = (_made[0] - 1) % EVERY == 0
    if due:
        prune(root, keep())


def keep() -> int:
    return bound(KEEP_ENV, KEEP)


def prune(root: Path, keep: int, grace: float | None = None) -> int:
    """Drop the least recently used builds under ``root`` beyond ``keep``, of those unused
    for ``grace`` seconds (default GRACE), and the scratch of builds a killed process left
    (as old); how many went."""
    stale = time.time() - (GRACE if grace is None else grace)
    builds: list[tuple[float, str]] = []
    scratch: list[tuple[float, str]] = []
    with contextlib.suppress(OSError), os.scandir(root) as found:
        for entry in found:
            with contextlib.suppress(OSError):
                if entry.is_dir(follow_symlinks=False):
                    aged = (entry.stat(follow_symlinks=False).st_mtime, entry.name)
                    (scratch if entry.name.startswith(".") else builds).append(aged)
    builds.sort()
    doomed = [name for mtime, name in builds[: max(0, len(builds) - keep)] if mtime < stale]
    doomed += [name for mtime, name in scratch if mtime < stale]
    return sum(_remove(root, name) for name in doomed)


def _remove(root: Path, name: str) -> bool:
    hidden = None
    try:
        hidden = Path(tempfile.mkdtemp(prefix=".gone-", dir=root))
        os.rename(root / name, hidden / name)  # (atomic: found whole, or not at all)
        return True
    except OSError:
        return False
    finally:
        if hidden is not None:
            shutil.rmtree(hidden, ignore_errors=True)
