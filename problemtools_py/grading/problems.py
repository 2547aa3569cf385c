"""Where the problems to grade on come from: a dataset directory, or a directory of
problem packages, each turned into the row kattis2parquet would make of it (the same tests,
caps and time limit, its references run once), so a problem gets one reward whichever way
it is given."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from problemtools_py.digests import digest
from problemtools_py.errors import FatalError
from problemtools_py.sandbox.pool import SandboxPool

if TYPE_CHECKING:  # (imported where used: pyarrow and the model take 0.2 s to import,
    # which a grader spends starting its sandboxes, see Grader)
    from problemtools_py.dataset.reader import Dataset

Tests = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Fetched:
    """A problem to grade on: its tests, its time limit (CPU seconds), and its own judge
    when the comparator cannot judge it (``judge_json``, see dataset.judges)."""

    tests: Tests
    time_limit: float
    judge_json: str = ""

    @property
    def content_key(self) -> str:
        """What a judge given with its tests (no problem id) is opened once per."""
        return digest(
            "inline-judge", self.judge_json, json.dumps(self.tests), repr(self.time_limit)
        )


class ProblemSource(Protocol):
    def fetch(self, pid: str) -> Fetched | None: ...

    def ids(self) -> set[str]: ...

    def close(self) -> None: ...


class NoProblems:
    """A grader's source when the tests come with each call."""

    def fetch(self, pid: str) -> Fetched | None:
        return None

    def ids(self) -> set[str]:
        return set()

    def close(self) -> None:
        pass


class DatasetSource:
    def __init__(self, data: Dataset) -> None:
        self.data = data

    def fetch(self, pid: str) -> Fetched | None:
        for split in self.data.splits:
            found = self.data.problem(split, pid)
            if found is not None:
                return Fetched(tuple(found.tests), found.time_limit_s, found.judge_json)
        return None

    def ids(self) -> set[str]:
        return {pid for split in self.data.splits for pid in self.data.ids(split)}

    def close(self) -> None:
        pass


class Unavailable(FatalError):
    """A problem the source holds but cannot grade: kattis2parquet leaves its package
    out (why is the message). Its completions get no reward; the batch goes on."""


class PackagesSource:
    """Packages in a directory, known by problem_id (from .dataset.json, else the id of
    their English statement). Their references run in ``pool``, or in a small pool of the
    source's own, started at the first fetch: never a grader's, whose sandboxes keep a
    lean session open between completions (a run asked of one of those fails)."""

    REFERENCE_JOBS = 2

    def __init__(self, root: Path, pool: SandboxPool | None = None) -> None:
        self.pool = pool
        self._own = pool is None
        self.paths: dict[str, Path] = {}
        for path in sorted(p for p in root.iterdir() if (p / "problem.yaml").is_file()):
            self.paths[_id_of(path)] = path

    def ids(self) -> set[str]:
        return set(self.paths)

    def close(self) -> None:
        if self._own and self.pool is not None:
            self.pool.close()
            self.pool = None

    def fetch(self, pid: str) -> Fetched | None:
        from problemtools_py.dataset.build import BuildOptions, convert
        from problemtools_py.dataset.schema import parse_tests

        path = self.paths.get(pid)
        if path is None:
            return None
        if self.pool is None:
            self.pool = SandboxPool(self.REFERENCE_JOBS + 1)

        options = BuildOptions(keep_judges=True)
        converted = convert(path, self.pool, options)
        if converted.row is None:
            raise Unavailable(
                f"kattis2parquet leaves this package out ({converted.drop}"
                + (f": {converted.detail}" if converted.detail else "")
                + "), so it has no reward",
                path=path,
            )
        row = converted.row
        tests = parse_tests(row.tests_json, path, 0)
        return Fetched(tuple(tests), row.time_limit_s, row.judge_json)


def _id_of(path: Path) -> str:
    from problemtools_py.dataset.build import statement_text
    from problemtools_py.dataset.ids import problem_id
    from problemtools_py.model import load_problem
    from problemtools_py.model.loader import find_sidecar

    sidecar = find_sidecar(path)
    if sidecar is not None:
        return str(json.loads(sidecar.read_text(encoding="utf-8"))["problem_id"])
    statement = statement_text(load_problem(path))
    if statement is None:
        raise FatalError("no English statement to identify the problem by", path=path)
    return problem_id(statement)


def open_source(source: Path | str | Dataset) -> ProblemSource:
    """The problems of a dataset, or of the packages in a directory (whose references
    run in sandboxes of their own)."""
    from problemtools_py.dataset.reader import Dataset

    if isinstance(source, Dataset):
        return DatasetSource(source)
    root = Path(source)
    if not root.is_dir():
        raise FatalError("neither a dataset nor a directory of problem packages", path=root)
    if any(root.glob("problems-*.parquet")):
        return DatasetSource(Dataset(root))
    return PackagesSource(root)


class RecentProblems:
    """Problems fetched once and kept for the next completions (the ``keep`` last asked),
    from whichever source the grader has at the time (a Ray node ships its own)."""

    def __init__(self, keep: int = 64) -> None:
        self.keep = keep
        self._kept: OrderedDict[str, Fetched] = OrderedDict()
        self._lock = threading.Lock()
        self._fetch_lock = threading.Lock()  # (one Parquet reader is not safe across threads)
        self._unavailable: dict[str, Unavailable] = {}  # (converted once, not per completion)

    def get(self, source: ProblemSource, pid: str) -> Fetched:
        with self._lock:
            if pid in self._kept:
                self._kept.move_to_end(pid)
                return self._kept[pid]
        with self._fetch_lock:
            if pid in self._unavailable:  # (its traceback anew: not one grown per raise)
                raise self._unavailable[pid].with_traceback(None)
            try:
                found = source.fetch(pid)
            except Unavailable as exc:
                self._unavailable[pid] = exc
                raise
        if found is None:
            raise FatalError(f"no problem with id {pid!r}")
        with self._lock:
            self._kept[pid] = found
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        return found
