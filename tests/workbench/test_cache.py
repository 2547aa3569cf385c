"""workbench/cache.py: verdicts kept by content in one SQLite file, gathered and committed
together, shared by processes; a cache that cannot serve is only slower."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from problemtools_py.digests import digest
from problemtools_py.workbench import cache as cache_module
from problemtools_py.workbench.cache import FILE, VerdictCache, flush_all


@pytest.fixture(autouse=True)
def _own_stores(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test its own per-process stores (as a new process would have)."""
    monkeypatch.setattr(cache_module, "_STORES", {})
    yield
    for store in cache_module._STORES.values():
        store.flush()
        store._drop(remove=False)


def _committed(root: Path) -> dict[str, str]:
    with sqlite3.connect(root / FILE) as db:
        return dict(db.execute("SELECT key, value FROM verdicts").fetchall())


def test_a_value_comes_back_as_stored_and_is_replaced_whole(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path)
    key = digest("case", "1")
    assert cache.get(key) is None
    cache.put(key, {"verdict": "AC", "cpu": 0.25})
    assert cache.get(key) == {"verdict": "AC", "cpu": 0.25}  # (before it is committed)
    flush_all()
    assert VerdictCache(tmp_path).get(key) == {"verdict": "AC", "cpu": 0.25}
    cache.put(key, {"verdict": "WA"})
    flush_all()
    assert cache.get(key) == {"verdict": "WA"}
    assert _committed(tmp_path) == {key: '{"verdict": "WA"}'}


def test_new_verdicts_are_committed_together_not_one_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "BATCH", 10)
    cache = VerdictCache(tmp_path)
    for n in range(9):
        cache.put(digest("n", str(n)), {"n": n})
    assert not (tmp_path / FILE).exists() or _committed(tmp_path) == {}
    cache.put(digest("n", "9"), {"n": 9})  # (the tenth: the batch goes in)
    assert len(_committed(tmp_path)) == 10
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(FILE)) == []


def test_threads_writing_one_key_leave_one_whole_value(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path)
    key = digest("case", "2")
    values = [{"n": n, "message": "x" * (n * 1000)} for n in range(8)]
    threads = [threading.Thread(target=lambda v=v: [cache.put(key, v) for _ in range(50)])
               for v in values]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    flush_all()
    assert VerdictCache(tmp_path).get(key) in values


def test_what_a_process_gathered_is_committed_when_it_exits(tmp_path: Path) -> None:
    code = ("import sys\nfrom pathlib import Path\n"
            "from problemtools_py.workbench.cache import VerdictCache\n"
            "from problemtools_py.digests import digest\n"
            "VerdictCache(Path(sys.argv[1])).put(digest('left'), {'verdict': 'TLE'})\n")  # fmt: skip
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True, timeout=60)
    assert VerdictCache(tmp_path).get(digest("left")) == {"verdict": "TLE"}


def test_processes_share_the_file_from_its_making_on(tmp_path: Path) -> None:
    code = ("import sys\nfrom pathlib import Path\n"
            "from problemtools_py.workbench.cache import VerdictCache, flush_all\n"
            "from problemtools_py.digests import digest\n"
            "cache = VerdictCache(Path(sys.argv[1]))\n"
            "for n in range(300):\n"
            "    cache.put(digest(sys.argv[2], str(n)), {'n': n})\n"
            "    flush_all()\n")  # fmt: skip
    writers = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path), name])
               for name in ("a", "b", "c")]  # fmt: skip
    assert all(w.wait(timeout=120) == 0 for w in writers)
    cache = VerdictCache(tmp_path)
    assert all(cache.get(digest(name, str(n))) == {"n": n} for name in "abc" for n in range(300))


def test_a_cache_that_cannot_be_opened_is_only_slower(tmp_path: Path) -> None:
    (tmp_path / FILE).mkdir()  # (a directory where the file would be)
    cache = VerdictCache(tmp_path)
    cache.put(digest("case", "3"), {"verdict": "AC"})
    flush_all()  # (no error)
    assert cache.get(digest("case", "4")) is None


def test_a_damaged_file_is_replaced(tmp_path: Path) -> None:
    (tmp_path / FILE).write_bytes(b"not a database, " * 512)
    cache = VerdictCache(tmp_path)
    assert cache.get(digest("case", "5")) is None
    cache.put(digest("case", "5"), {"verdict": "RTE"})
    flush_all()
    assert _committed(tmp_path) == {digest("case", "5"): '{"verdict": "RTE"}'}


def test_a_file_locked_too_long_loses_a_batch_not_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "BUSY_SECONDS", 0.1)
    cache = VerdictCache(tmp_path)
    cache.put(digest("first"), {"v": 1})
    flush_all()
    holder = sqlite3.connect(tmp_path / FILE, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # (another process writing, for ever)
    cache.put(digest("lost"), {"v": 2})
    flush_all()  # (waits 0.1 s, gives up, no error)
    holder.execute("ROLLBACK")
    holder.close()
    cache.put(digest("kept"), {"v": 3})
    flush_all()
    assert set(_committed(tmp_path)) == {digest("first"), digest("kept")}


def test_a_value_that_is_not_a_verdict_reads_as_none(tmp_path: Path) -> None:
    cache = VerdictCache(tmp_path)
    cache.put(digest("x"), {"v": 1})
    flush_all()
    with sqlite3.connect(tmp_path / FILE) as db:
        db.execute("UPDATE verdicts SET value = '[1, 2]'")
    assert VerdictCache(tmp_path).get(digest("x")) is None


def test_a_file_of_before_without_stamps_is_started_afresh_once(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / FILE) as db:  # (the table of earlier versions)
        db.execute("CREATE TABLE verdicts (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
                   " WITHOUT ROWID")  # fmt: skip
        db.execute("INSERT INTO verdicts VALUES (?, ?)", (digest("old"), '{"v": 0}'))
    cache = VerdictCache(tmp_path)
    assert cache.get(digest("old")) is None
    cache.put(digest("new"), {"v": 1})
    flush_all()
    with sqlite3.connect(tmp_path / FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == cache_module.SCHEMA
    cache_module._STORES.clear()  # (as a new process: the table is kept from now on)
    assert VerdictCache(tmp_path).get(digest("new")) == {"v": 1}


def _clock(monkeypatch: pytest.MonkeyPatch, start: int) -> list[int]:
    clock = [start]
    monkeypatch.setattr(cache_module, "now", lambda: clock[0])
    return clock


def _stamps(root: Path) -> dict[str, int]:
    with sqlite3.connect(root / FILE) as db:
        return dict(db.execute("SELECT key, used FROM verdicts").fetchall())


def test_a_read_renews_a_stamp_a_day_old_and_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _clock(monkeypatch, 1_000_000)
    cache = VerdictCache(tmp_path)
    cache.put(digest("a"), {"v": 1})
    flush_all()
    clock[0] += cache_module.DAY - 1
    assert cache.get(digest("a")) == {"v": 1}
    assert not cache.store.touched  # (so a warm verification that day writes nothing)
    clock[0] += 1
    assert cache.get(digest("a")) == {"v": 1}
    flush_all()
    assert _stamps(tmp_path) == {digest("a"): 1_000_000 + cache_module.DAY}


def test_the_file_keeps_the_verdicts_used_last_within_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache_module.KEEP_ENV, "500")
    monkeypatch.setattr(cache_module, "BATCH", 100)
    clock = _clock(monkeypatch, 1_000_000)
    cache = VerdictCache(tmp_path)
    for n in range(400):
        cache.put(digest(str(n)), {"n": n})
    flush_all()
    assert len(_stamps(tmp_path)) == 400  # (within the bound: all kept)
    clock[0] += cache_module.DAY
    assert cache.get(digest("0")) == {"n": 0}  # (used again, a day later: as if new)
    flush_all()
    for n in range(400, 700):
        cache.put(digest(str(n)), {"n": n})
    flush_all()
    kept = set(_stamps(tmp_path))
    # the 500 used last: 0 (read), then the last 499 written
    assert kept == {digest(str(n)) for n in [0, *range(201, 700)]}
    assert cache.get(digest("200")) is None and cache.get(digest("0")) == {"n": 0}
    with sqlite3.connect(tmp_path / FILE) as db:  # (a dropped range: nothing else lost)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_bad_bound_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache_module.KEEP_ENV, "lots")
    assert cache_module.kept() == cache_module.KEEP
    monkeypatch.setenv(cache_module.KEEP_ENV, "1500")
    assert cache_module.kept() == 1500
