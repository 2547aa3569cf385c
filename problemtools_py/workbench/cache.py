"""Verdicts of deterministic runs (validators on inputs, judged test cases, graders), kept
by content hash in one SQLite file in the user's cache directory, shared safely by
concurrent runs (WAL: readers never wait for a writer; writers take turns).

It was a file per verdict: on ext4 each new inode cost the judge ~0.7 ms of CPU
(``find_inode_bit``/``recently_deleted``), 0.37 s of a 250-case verification's 534 writes.
Now a process's new verdicts are gathered and committed together (every BATCH, when a
verification ends, and at exit): one transaction, no new file. A verdict lost (a run
killed before it committed) is only work done again; a cache that cannot be opened or
written is only slower, and a damaged file is replaced.

The file is bounded (a judge verifying problems for years would fill the disk, ~250
bytes a verdict): it keeps the KEEP verdicts written last (1,000,000, ~250 MB;
``PROBLEMTOOLS_PY_KEEP_VERDICTS`` sets another), a verdict read on a later day than it
was written counting as written again (so a warm verification writes at most once a
day). Their order is the rows' rowids, so each commit drops those beyond the bound by
one range: no count, no sort. An earlier file (without that order) is started afresh."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from problemtools_py.cachedir import bound, cache_root

FILE = "verdicts.sqlite3"
BATCH = 256  # new verdicts gathered before a commit
BUSY_SECONDS = 10.0  # how long a write waits for another process's
BUSY = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
DAMAGED = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB
SCHEMA = 2  # the file's user_version (0: a file of before, keyed without an order)
KEEP = 1_000_000
KEEP_ENV = "PROBLEMTOOLS_PY_KEEP_VERDICTS"
DAY = 86_400  # seconds a read leaves a verdict's place alone


class VerdictCache:
    def __init__(self, root: Path | None = None) -> None:
        self.store = _store((root or cache_root()) / FILE)

    def get(self, key: str) -> dict[str, Any] | None:
        text = self.store.get(key)
        try:
            data = json.loads(text) if text is not None else None
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Keep ``value`` (committed with the others of this process, see the module)."""
        self.store.put(key, json.dumps(value))


class MemoryVerdicts:
    """Verdicts kept in this process only, the ``size`` used last (grading: a completion's
    runs are seldom seen again after a while, and millions of them would fill any file;
    but many completions write the same output, and a validator need not judge it twice)."""

    def __init__(self, size: int = 1 << 16) -> None:
        self.size = size
        self._kept: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: str, value: dict[str, Any]) -> None:
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


Verdicts = VerdictCache | MemoryVerdicts


def flush_all() -> None:
    """Commit every verdict this process gathered (when a verification ends; at exit)."""
    with _STORES_LOCK:
        stores = list(_STORES.values())
    for store in stores:
        store.flush()


class _Store:
    """One process's line to one cache file: reads go to the file (and to what is not
    committed yet), writes are gathered (see _do for what a failure does)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.pending: dict[str, str] = {}
        self.touched: dict[str, str] = {}  # read, written a day ago or more
        self.db: Any = None
        self.dead = False

    def get(self, key: str) -> str | None:
        with self.lock:
            if key in self.pending:
                return self.pending[key]
            row = self._do(
                lambda db: db.execute(
                    "SELECT value, used FROM verdicts WHERE key = ?", (key,)
                ).fetchone()
            )
            if not row:
                return None
            if row[1] <= now() - DAY:
                self.touched[key] = str(row[0])
            return str(row[0])

    def put(self, key: str, value: str) -> None:
        with self.lock:
            self.pending[key] = value
            if len(self.pending) >= BATCH:
                self._commit()

    def flush(self) -> None:
        with self.lock:
            if self.pending or self.touched:
                self._commit()

    def _commit(self) -> None:
        stamp, keep = now(), kept()
        rows = [(key, value, stamp) for key, value in {**self.touched, **self.pending}.items()]
        self.pending.clear()
        self.touched.clear()

        def write(db: Any) -> None:  # (a row replaced gets the next rowid: the newest)
            _transaction(
                db,
                lambda: (
                    db.executemany("INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?)", rows),
                    db.execute(
                        "DELETE FROM verdicts WHERE rowid <= (SELECT max(rowid) FROM verdicts) - ?",
                        (keep,),
                    ),
                ),
            )

        self._do(write)

    def _do(self, action: Any) -> Any:
        """``action(connection)``; None when the cache cannot serve. Busy: tried again
        until BUSY_SECONDS have passed (SQLite answers busy at once where waiting could
        deadlock, as two processes making the file's WAL do), then this action is lost. A
        file that is not a database or is damaged is removed and made anew, once; any
        other failure ends the cache for this process."""
        import sqlite3

        deadline = time.monotonic() + BUSY_SECONDS
        renewed = False
        while not self.dead:
            try:
                if self.db is None:
                    self.db = _connect(self.path)
                return action(self.db)
            except sqlite3.DatabaseError as exc:
                code = getattr(exc, "sqlite_errorcode", None)
                if code in BUSY:
                    if time.monotonic() < deadline:
                        time.sleep(0.005)
                        continue
                    return None
                damaged = code in DAMAGED and not renewed
                self._drop(remove=damaged)
                self.dead, renewed = not damaged, True
            except OSError:
                self._drop(remove=False)
                self.dead = True
        return None

    def _drop(self, remove: bool) -> None:
        if self.db is not None:
            with contextlib.suppress(Exception):  # (closing a broken connection)
                self.db.close()
        self.db = None
        if remove:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.unlink(f"{self.path}{suffix}")


def now() -> int:
    return int(time.time())


def kept() -> int:
    return bound(KEEP_ENV, KEEP)


def _transaction(db: Any, work: Any) -> None:
    db.execute("BEGIN IMMEDIATE")  # (one transaction; waits its turn here)
    try:
        work()
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _schema(db: Any) -> None:
    """The table (rowids in the order of writing, and when): made in a new file, and in
    one of before (user_version 0) in place of its table, once, whoever comes first."""

    def make() -> None:
        if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA:
            return  # (another process made it meanwhile)
        db.execute("DROP TABLE IF EXISTS verdicts")
        db.execute(
            "CREATE TABLE verdicts (key TEXT NOT NULL UNIQUE, value TEXT NOT NULL,"
            " used INTEGER NOT NULL)"
        )
        db.execute(f"PRAGMA user_version = {SCHEMA}")

    if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA:
        _transaction(db, make)


def _connect(path: Path) -> Any:
    import sqlite3  # (here: -p config and the hook never open the cache)

    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=BUSY_SECONDS, check_same_thread=False, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")  # (where the file system allows it)
        db.execute("PRAGMA synchronous=NORMAL")  # (a cache: losing the last commit is fine)
        _schema(db)
    except BaseException:
        db.close()
        raise
    return db


_STORES: dict[Path, _Store] = {}
_STORES_LOCK = threading.Lock()


def _store(path: Path) -> _Store:
    with _STORES_LOCK:
        if path not in _STORES:
            if not _STORES:
                atexit.register(flush_all)
            _STORES[path] = _Store(path)
        return _STORES[path]
