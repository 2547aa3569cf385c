"""``problem2pdf --watch``: build again whenever a file a statement is made from changes
(the statement's and solution's directories, problem.yaml, the samples), by polling their
times and sizes twice a second: no watcher library, and an editor that saves by renaming
a new file over the old one is seen as well."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

WATCHED = ("statement", "problem_statement", "solution", "data/sample", "problem.yaml")
INTERVAL = 0.5


def stamp(roots: list[Path]) -> tuple[tuple[str, int, int], ...]:
    """Every watched file's path, modification time and size."""
    return tuple(sorted(_files(roots)))


def _files(roots: list[Path]) -> Iterator[tuple[str, int, int]]:
    for root in roots:
        for name in WATCHED:
            top = root / name
            paths = [top] if top.is_file() else (p for p in top.rglob("*") if p.is_file())
            for path in paths:
                try:
                    info = os.stat(path)
                except OSError:
                    continue  # (gone while we looked: the next look sees it)
                yield str(path), info.st_mtime_ns, info.st_size


def watch(
    roots: list[Path],
    build: Callable[[], Any],
    stop: threading.Event | None = None,
    interval: float = INTERVAL,
) -> None:
    """``build()`` after every change, until ``stop`` is set (or Ctrl-C)."""
    last = stamp(roots)
    while stop is None or not stop.is_set():
        time.sleep(interval)
        now = stamp(roots)
        if now != last:
            last = now
            build()
