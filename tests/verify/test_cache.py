"""verify/cache.py: verdicts kept by content, written whole or not at all."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from problemtools_py.verify.cache import VerdictCache, digest


def test_a_value_comes_back_as_stored_and_is_replaced_whole(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path)
    key = digest("case", "1")
    assert cache.get(key) is None
    cache.put(key, {"verdict": "AC", "cpu": 0.25})
    assert cache.get(key) == {"verdict": "AC", "cpu": 0.25}
    cache.put(key, {"verdict": "WA"})
    assert cache.get(key) == {"verdict": "WA"}
    assert [p.name for p in (tmp_path / "verdicts").rglob("*")] == [key[:2], key]


def test_threads_writing_one_key_leave_one_whole_value_and_no_temporaries(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path)
    key = digest("case", "2")
    values = [{"n": n, "message": "x" * (n * 1000)} for n in range(8)]
    threads = [threading.Thread(target=lambda v=v: [cache.put(key, v) for _ in range(50)])
               for v in values]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.get(key) in values
    assert not [p for p in (tmp_path / "verdicts").rglob("*.tmp")]


def test_a_cache_that_cannot_be_written_is_only_slower(tmp_path: Path) -> None:
    (tmp_path / "verdicts").write_text("a file where the directory would be")
    cache = VerdictCache(tmp_path)
    cache.put(digest("case", "3"), {"verdict": "AC"})  # (no error)
    assert cache.get(digest("case", "3")) is None


def test_a_directory_removed_meanwhile_is_made_again(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path)
    first, second = digest("a"), digest("b")
    cache.put(first, {"v": 1})
    shutil.rmtree(tmp_path / "verdicts")
    cache.put(first, {"v": 2})  # (lost: the directory was known to exist)
    cache.put(first, {"v": 3})
    cache.put(second, {"v": 4})
    assert cache.get(first) == {"v": 3} and cache.get(second) == {"v": 4}
