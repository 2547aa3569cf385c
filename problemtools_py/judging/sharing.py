"""A submission's test cases shared between the thread that judges it and threads left
with nothing else to do (see verify/ahead.py). Without them a verification ends on one core: the
last submission with many cases runs them one after another while the other cores idle.

Cases are handed out in order, each once. Where the first failure ends a submission's
runs (``stop_early``), none after a failed case is handed out, and the outcomes are those
up to it, in order: the same as one thread judging them one after another (a helper may
have judged a later case meanwhile; that outcome is left out, and kept in the verdict
cache like any other). Where a failure ends only some of the runs (``skip_after``: a
legacy group's ``on_reject: break``), those are neither handed out nor in the outcomes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

T = TypeVar("T")
POLL = 1.0  # seconds between a waiting helper's looks when nothing woke it (see wake)


class CaseQueue(Generic[T]):
    def __init__(
        self,
        count: int,
        stop_early: bool,
        skip_after: Callable[[int], Collection[int]] | None = None,
    ) -> None:
        self.stop_early = stop_early
        self.skip_after = skip_after
        self._skipped: set[int] = set()  # never to be handed out, nor in the outcomes
        self._changed = threading.Condition()
        self._next = 0  # the next case never handed out
        self._end = count  # no case from here on is handed out
        self._returned: list[int] = []  # handed out, not judged, before _end: hand out again
        self._running = 0
        self._done: dict[int, T] = {}

    def take(self) -> int | None:
        """The next case to judge, or None when there is none left."""
        with self._changed:
            while self._next < self._end and self._next in self._skipped:
                self._next += 1
            if self._returned:
                index = min(self._returned)
                self._returned.remove(index)
            elif self._next < self._end:
                index, self._next = self._next, self._next + 1
            else:
                return None
            self._running += 1
            return index

    def put(self, index: int, outcome: T, failed: bool) -> None:
        with self._changed:
            self._done[index] = outcome
            self._running -= 1
            if failed and self.stop_early:
                self._shrink(index + 1)
            elif failed and self.skip_after is not None and index not in self._skipped:
                self._skipped.update(self.skip_after(index))
                self._returned = [i for i in self._returned if i not in self._skipped]
            self._changed.notify_all()

    def give_back(self, index: int) -> None:
        """A case taken but not judged (its helper failed): the next taker gets it."""
        with self._changed:
            if index < self._end:
                self._returned.append(index)
            self._running -= 1
            self._changed.notify_all()

    def stop(self) -> None:
        """Hand out nothing more (the verification is closing)."""
        with self._changed:
            self._shrink(self._next)
            self._returned.clear()

    def _shrink(self, end: int) -> None:
        """Hand out nothing from ``end`` on (nor anything given back there)."""
        self._end = min(self._end, end)
        self._returned = [i for i in self._returned if i < self._end]

    def left(self) -> int:
        with self._changed:
            ahead = sum(1 for i in self._skipped if self._next <= i < self._end)
            return max(0, self._end - self._next - ahead) + len(self._returned)

    def settle(self) -> bool:
        """Wait for the cases being judged; True when none was given back meanwhile."""
        with self._changed:
            self._changed.wait_for(lambda: self._running == 0)
            return not self._returned

    def outcomes(self) -> list[T]:
        """The outcomes in case order, up to the first case not judged (or the first
        failure), without those a failure skipped."""
        with self._changed:
            found = []
            for index in range(self._end):
                if index in self._skipped:
                    continue
                if index not in self._done:
                    break
                found.append(self._done[index])
            return found


Helper = Callable[[], bool]  # judges cases until none is left; False: it failed


class Sharing:
    """The queues open to helpers, each with what a helper runs to serve it."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._open: list[tuple[CaseQueue[Any], Helper]] = []

    @contextmanager
    def offer(self, queue: CaseQueue[Any], helper: Helper) -> Iterator[None]:
        entry = (queue, helper)
        with self._changed:
            self._open.append(entry)
            self._changed.notify_all()
        try:
            yield
        finally:
            with self._changed:
                self._open.remove(entry)

    def next_helper(self, minimum: int, finished: Callable[[], bool]) -> Helper | None:
        """The helper of the open queue with the most cases left, at least ``minimum``,
        when there is one; else waits for one, or returns None once ``finished()`` (nothing
        more will be offered: asked again at each :meth:`wake`)."""
        with self._changed:
            while True:
                found = [(queue.left(), index) for index, (queue, _) in enumerate(self._open)]
                best = max(found, default=None)
                if best is not None and best[0] >= minimum:
                    return self._open[best[1]][1]
                if finished():
                    return None
                self._changed.wait(POLL)

    def wake(self) -> None:
        """Have waiting helpers look again (a submission's judging ended, or the
        verification is closing)."""
        with self._changed:
            self._changed.notify_all()
