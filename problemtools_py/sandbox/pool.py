"""Sandboxes for worker threads: one per concurrent run, forked lazily from one spawner
server (see Server.spawn), closed together."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.launch import take_early
from problemtools_py.sandbox.results import SandboxError


class SandboxPool:
    """``size`` sandboxes, one per concurrent run; started lazily, closed together."""

    def __init__(self, size: int, isolate: bool = True, ahead: int = 0) -> None:
        self.size = size
        self.isolate = isolate
        self.ahead = ahead  # started at the first use (see sandbox)
        self._free: queue.LifoQueue[Sandbox] = queue.LifoQueue()
        self._all: list[Sandbox] = []
        self._ending: list[Sandbox] = []  # released: their servers are ending
        self._lock = threading.Lock()
        self._starting: list[threading.Thread] = []
        # The server the others are forked from (a new interpreter costs ~50 ms of CPU, a
        # fork ~1 ms: see Server.spawn). It runs nothing else; None until the first need.
        self._spawner: Sandbox | None = None
        self._spawn_lock = threading.Lock()

    def prestart(self, count: int) -> None:
        """Start ``count`` sandboxes now, in threads: a server takes 80 ms to start, which
        a command spends importing what it needs. A failure is met again by the first user."""
        for _ in range(count):
            thread = threading.Thread(target=self._start_one, daemon=True)
            thread.start()
            self._starting.append(thread)

    def _new(self) -> Sandbox:
        """A new sandbox: forked from the pool's spawner (started now if need be), or when
        that fails, started afresh."""
        with self._spawn_lock:
            try:
                if self._spawner is None or not self._spawner.alive:
                    if self._spawner is not None:
                        self._spawner.close()
                    self._spawner = None
                    self._spawner = _early_spawner(self.isolate) or Sandbox(self.isolate)
                return Sandbox(self.isolate, spawner=self._spawner)
            except SandboxError:
                pass
        return Sandbox(self.isolate)

    def _start_one(self) -> None:
        try:
            box = self._new()
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

    def _first_free(self) -> Sandbox | None:
        """A free sandbox, the first that is ready while others start (a user that came
        first would start more); None when none is free and none is starting."""
        while any(thread.is_alive() for thread in self._starting):
            try:
                return self._free.get(timeout=0.05)  # (woken by the first put)
            except queue.Empty:
                continue
        try:
            return self._free.get_nowait()
        except queue.Empty:
            return None

    @contextmanager
    def sandbox(self) -> Iterator[Sandbox]:
        """A free sandbox (started now when none is). At the first use, ``ahead`` more
        start in threads: a command that needs one will soon need others, and one that
        finds everything cached (a warm verification) starts none."""
        if self.ahead:
            with self._lock:
                count, self.ahead = self.ahead, 0
            self.prestart(count)
        box = self._first_free()
        if box is None:
            box = self._new()  # (outside the pool's lock: others may start theirs)
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

    def release(self) -> None:
        """Let every idle server start its end now (the caller is done with them and
        writes its report meanwhile); ``close`` then only waits for them. A later use
        starts new servers."""
        self._started()
        with self._lock:
            while True:
                try:
                    box = self._free.get_nowait()
                except queue.Empty:
                    break
                box.sock.close()
                self._all.remove(box)
                self._ending.append(box)

    def close(self) -> None:
        self._started()
        for box in self._all:  # every server starts its end at once, then each is waited for
            box.sock.close()
        for box in self._ending + self._all:
            box.close()
        self._all.clear()
        self._ending.clear()
        if self._spawner is not None:  # last: it collects the servers it forked
            self._spawner.close()
            self._spawner = None

    def __enter__(self) -> SandboxPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _early_spawner(isolate: bool) -> Sandbox | None:
    """The server this process started early (see launch.start_early), hello read, when
    it is of this isolation and started well."""
    started = take_early(isolate)
    if started is None:
        return None
    try:
        return Sandbox(isolate, started=started)
    except SandboxError:
        return None
