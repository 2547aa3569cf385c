"""OnceEach: one making per key, whatever the threads."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from problemtools_py.once import OnceEach


def test_each_key_is_made_once_while_others_wait() -> None:
    once: OnceEach[str, int] = OnceEach()
    made: list[str] = []
    lock = threading.Lock()

    def make(key: str) -> int:
        with lock:
            made.append(key)
        time.sleep(0.02)  # long enough for the other threads to ask meanwhile
        return len(key)

    keys = ["a", "bb", "a", "ccc", "bb", "a"] * 4
    with ThreadPoolExecutor(6) as pool:
        values = list(pool.map(lambda k: once.get(k, lambda: make(k)), keys))
    assert values == [len(k) for k in keys]
    assert sorted(made) == ["a", "bb", "ccc"]


def test_a_failure_is_raised_to_every_caller() -> None:
    once: OnceEach[str, int] = OnceEach()
    calls = 0

    def fail() -> int:
        nonlocal calls
        calls += 1
        raise ValueError("no")

    for _ in range(2):
        with pytest.raises(ValueError, match="no"):
            once.get("k", fail)
    assert calls == 1
