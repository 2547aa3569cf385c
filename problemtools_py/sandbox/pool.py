"""Sandboxes for worker threads: one per concurrent run, started lazily, closed together."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from problemtools_py.sandbox.client import Sandbox


class SandboxPool:
    """``size`` sandboxes, one per concurrent run; started lazily, closed together."""

    def __init__(self, size: int, isolate: bool = True, ahead: int = 0) -> None:
        self.size = size
        self.isolate = isolate
        self.ahead = ahead  # started at the first use (see sandbox)
        self._free: queue.LifoQueue[Sandbox] = queue.LifoQueue()
        self._all: list[Sandbox] = []
        self._lock = threading.Lock()
        self._starting: list[threading.Thread] = []

    def prestart(self, count: int) -> None:
        """Start ``count`` sandboxes now, in threads: a server takes 80 ms to start, which
        a command spends importing what it needs. A failure is met again by the first user."""
        for _ in range(count):
            thread = threading.Thread(target=self._start_one, daemon=True)
            thread.start()
            self._starting.append(thread)

    def _start_one(self) -> None:
        try:
            box = Sandbox(self.isolate)
            box.python_matches()  # (its probe too: one run in a jail)
        except Exception:
            return
        with self._lock:
            self._all.append(box)
        self._free.put(box)

    def _started(self) -> None:
        """Wait for the sandboxes being started: a user that came first would start more."""
        for thread in self._starting:
            thread.join()

    @contextmanager
    def sandbox(self) -> Iterator[Sandbox]:
        """A free sandbox (started now when none is). At the first use, ``ahead`` more
        start in threads: a command that needs one will soon need others, and one that
        finds everything cached (a warm verification) starts none."""
        if self.ahead:
            with self._lock:
                count, self.ahead = self.ahead, 0
            self.prestart(count)
        self._started()
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
        self._started()
        for box in self._all:  # every server starts its end at once, then each is waited for
            box.sock.close()
        for box in self._all:
            box.close()
        self._all.clear()

    def __enter__(self) -> SandboxPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
