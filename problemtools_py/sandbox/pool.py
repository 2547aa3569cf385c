"""Sandboxes for worker threads: one per concurrent run, started lazily, closed together."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from problemtools_py.sandbox.client import Sandbox


class SandboxPool:
    """``size`` sandboxes, one per concurrent run; started lazily, closed together."""

    def __init__(self, size: int, isolate: bool = True) -> None:
        self.size = size
        self.isolate = isolate
        self._free: queue.LifoQueue[Sandbox] = queue.LifoQueue()
        self._all: list[Sandbox] = []
        self._lock = threading.Lock()

    @contextmanager
    def sandbox(self) -> Iterator[Sandbox]:
        try:
            box = self._free.get_nowait()
        except queue.Empty:
            box = Sandbox(self.isolate)  # servers start in parallel, outside the lock
            with self._lock:
                self._all.append(box)
        try:
            yield box
        finally:
            if box.alive:
                self._free.put(box)
            else:  # its server died: the next user gets a new one
                with self._lock:
                    self._all.remove(box)
                box.close()

    def close(self) -> None:
        for box in self._all:
            box.close()
        self._all.clear()

    def __enter__(self) -> SandboxPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
