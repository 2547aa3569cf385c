"""Each key's value made once, however many threads ask for it at a time."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class OnceEach(Generic[K, V]):
    """The first caller for a key makes its value; callers meanwhile and later get that
    value (or the exception making it raised)."""

    def __init__(self) -> None:
        self._made: dict[K, Future[V]] = {}
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        with self._lock:
            future = self._made.get(key)
            mine = future is None
            if future is None:
                future = self._made[key] = Future()
        if mine:
            try:
                future.set_result(make())
            except BaseException as exc:
                future.set_exception(exc)
        return future.result()

    def forget(self, key: K) -> None:
        """The next caller for ``key`` makes its value again."""
        with self._lock:
            self._made.pop(key, None)
