"""The reward: 1.0 when the program passes every test of the problem, in order, within
``time_limit_s`` CPU seconds each, exiting 0, by the dataset comparator; else 0.0, with
the status of the first failure.

A :class:`Grader` opens a dataset (or a directory of problem packages) once. Each
completion runs in one jail of the judging core's sandbox for all its tests (a fork per
test from the sandbox server's warm interpreter); the grading process itself never forks
programs. A run stopped by the wall-clock backstop while still under its CPU limit means
the machine was overloaded: it is retried, and reported as ``harness_overload`` if that
persists, never as a silent 0."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from problemtools_py.cpus import usable_cores
from problemtools_py.dataset.reader import Dataset
from problemtools_py.errors import FatalError
from problemtools_py.grading.extract import extract_code
from problemtools_py.grading.problems import ProblemSource, open_source
from problemtools_py.judge.dataset_rule import first_difference
from problemtools_py.judge.judging import verdict_of_run
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits, RunResult
from problemtools_py.verdicts import Verdict
from problemtools_py.window import ordered_window

# The dataset's names for verdicts; "no_code" and "harness_overload" are no verdict (no
# program was found; the machine, not the program, failed).
STATUS_OF = {
    Verdict.AC: "ok",
    Verdict.WA: "wrong_answer",
    Verdict.TLE: "timeout",
    Verdict.MLE: "memory",
    Verdict.OLE: "output_limit",
    Verdict.RTE: "runtime_error",
    Verdict.CE: "syntax_error",
}


@dataclass(frozen=True)
class GradeResult:
    reward: float
    status: str
    test: int | None = None  # index of the failing test
    cpu_seconds: float = 0.0  # of the failing test, or the most of any test
    wall_seconds: float = 0.0
    tests_run: int = 0
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Settings:
    memory_mb: int = 2048
    output_factor: int = 4
    output_slack: int = 64 << 10
    raw: bool = False
    retries: int = 2
    pin: bool = True  # when the workers take every core: worker k runs on core k (below)


class Grader:
    """``Grader(path)``: a dataset directory or a directory of problem packages."""

    def __init__(
        self,
        source: Path | str | Dataset,
        settings: Settings | None = None,
        jobs: int | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.jobs = jobs or usable_cores()
        self.pool = SandboxPool(self.jobs + 1)
        self.problems: ProblemSource = open_source(source, self.pool)
        self._cache: OrderedDict[str, tuple[tuple[tuple[str, str], ...], float]] = OrderedDict()
        self._lock = threading.Lock()
        self._fetch_lock = threading.Lock()
        self._sessions: dict[int, tuple[Path, AbstractContextManager[Sandbox]]] = {}
        self._cores = self._pinning()
        self._worker = threading.local()  # .core: the core of a grade_many worker thread

    def close(self) -> None:
        for work, session in self._sessions.values():
            with contextlib.suppress(Exception):
                session.__exit__(None, None, None)
            shutil.rmtree(work, ignore_errors=True)
        self._sessions.clear()
        self.pool.close()

    def __enter__(self) -> Grader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _problem(self, pid: str) -> tuple[tuple[tuple[str, str], ...], float]:
        """Tests and time limit, fetched once and kept for the next completions."""
        with self._lock:
            if pid in self._cache:
                self._cache.move_to_end(pid)
                return self._cache[pid]
        with self._fetch_lock:  # one Parquet reader is not safe across threads
            found = self.problems.fetch(pid)
        if found is None:
            raise FatalError(f"no problem with id {pid!r}")
        with self._lock:
            self._cache[pid] = found
            while len(self._cache) > 64:
                self._cache.popitem(last=False)
        return found

    def _pinning(self) -> list[int]:
        """The cores grade_many's workers are pinned to, one each: when they take every
        core this process may use (as BAPCtools pins its runners). Each worker's thread
        (while it runs tests), the jail it talks to and every program there then share
        one core: no migrations, and no core left idle while two pipelines' processes
        queue on the other (measured on 2 cores: 3 to 5 % idle instead of 13 to 18 %, 14 %
        more tests per second). Fewer workers than cores (leaving room for a trainer), or
        one core: nothing is pinned."""
        try:
            allowed = sorted(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            return []
        if not self.settings.pin or len(allowed) < 2 or self.jobs < len(allowed):
            return []
        return allowed

    def _start_worker(self, index: Iterator[int]) -> None:
        """A grade_many thread: take the next core (see _on_core)."""
        if self._cores:
            with self._lock:
                self._worker.core = self._cores[next(index) % len(self._cores)]

    @contextmanager
    def _on_core(self) -> Iterator[None]:
        """While a grade_many thread runs a completion's tests, it runs on its core (its
        jail and programs follow, see lean.run). Only then: threads started elsewhere in
        this thread (a Parquet reader's pool, say) would inherit the pin and keep it for
        the trainer's later work."""
        core: int | None = getattr(self._worker, "core", None)
        before: set[int] | None = None
        if core is not None:
            try:
                before = os.sched_getaffinity(0)
                os.sched_setaffinity(0, {core})  # this thread only
            except OSError:
                before = None
        try:
            yield
        finally:
            if before is not None:
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(0, before)

    def grade(self, problem_id: str, completion: str) -> GradeResult:
        tests, time_limit = self._problem(problem_id)
        code = extract_code(completion, self.settings.raw)
        if code is None:
            return GradeResult(0.0, "no_code")
        try:
            compile(code, "main.py", "exec")
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as exc:
            why = f"{type(exc).__name__}: {exc}"[:300]
            return GradeResult(0.0, STATUS_OF[Verdict.CE], message=why)
        with self.pool.sandbox() as box:
            work = self._session(box)
            program = work / "main.py"
            program.write_text(code, encoding="utf-8")
            program.chmod(0o644)
            try:
                with self._on_core():
                    return self._run_tests(box, tests, time_limit)
            finally:
                program.unlink()

    def _session(self, box: Sandbox) -> Path:
        """Each sandbox keeps one jail open for every completion it grades: its program
        directory (bound read-only at /prog) gets each completion's code in turn, and the
        jail kills leftovers and empties its scratch space after every run."""
        with self._lock:
            found = self._sessions.get(id(box))
        if found is not None:
            return found[0]
        work = Path(tempfile.mkdtemp(prefix="ptpy-grade-"))
        work.chmod(0o755)
        session = box.session(
            limits=Limits(60.0, self.settings.memory_mb << 20),
            binds=[Bind(str(work), "/prog")],
            inprocess=box.python_matches(),
            lean=box.python_matches(),
        )
        session.__enter__()
        with self._lock:
            self._sessions[id(box)] = (work, session)
        return work

    def _run_tests(
        self, box: Sandbox, tests: tuple[tuple[str, str], ...], time_limit: float
    ) -> GradeResult:
        """In the box's open session (see _session): tests in order, stop at the first
        failure."""
        fast = box.python_matches()
        memory = self.settings.memory_mb << 20
        slowest = slowest_wall = 0.0
        cancel: threading.Event | None = getattr(self._worker, "cancel", None)
        for index, (stdin, expected) in enumerate(tests):
            if cancel is not None and cancel.is_set():
                raise _Cancelled
            run = self._run_one(box, fast, stdin, expected, time_limit, memory)
            if run is None:
                return GradeResult(
                    0.0,
                    "harness_overload",
                    index,
                    tests_run=index + 1,
                    message="stopped by the wall clock under its CPU limit, "
                    "repeatedly: the machine is overloaded",
                )
            slowest = max(slowest, run.cpu_seconds)
            slowest_wall = max(slowest_wall, run.wall_seconds)
            if not run.ok:
                detail = run.stderr.decode("utf-8", "replace")[-300:]
                verdict = verdict_of_run(run.outcome)
                assert verdict is not None
                return GradeResult(
                    0.0,
                    STATUS_OF[verdict],
                    index,
                    run.cpu_seconds,
                    run.wall_seconds,
                    index + 1,
                    detail,
                )
            difference = first_difference(run.stdout.decode("utf-8", "replace"), expected)
            if difference is not None:
                return GradeResult(
                    0.0,
                    STATUS_OF[Verdict.WA],
                    index,
                    run.cpu_seconds,
                    run.wall_seconds,
                    index + 1,
                    difference[1],
                )
        return GradeResult(1.0, STATUS_OF[Verdict.AC], None, slowest, slowest_wall, len(tests))

    def _run_one(
        self, box: Sandbox, fast: bool, stdin: str, expected: str, time_limit: float, memory: int
    ) -> RunResult | None:
        output = self.settings.output_factor * len(expected.encode()) + self.settings.output_slack
        limits = Limits(time_limit, memory, output)
        for _ in range(1 + self.settings.retries):
            fd = os.memfd_create("stdin")
            try:
                os.write(fd, stdin.encode("utf-8"))
                os.lseek(fd, 0, os.SEEK_SET)
                run = self._start(box, fast, limits, fd)
            finally:
                os.close(fd)
            if not (run.wall_killed and run.cpu_seconds < time_limit):
                return run
        return None

    def _start(self, box: Sandbox, fast: bool, limits: Limits, stdin: int) -> RunResult:
        """One test: straight to the session's jail when it offers that (see
        :meth:`Sandbox.run_lean`), on this worker's core, else through the
        sandbox server."""
        argv = ["python3", "-S", "/prog/main.py"]
        if fast and box.lean_open:
            core = getattr(self._worker, "core", None)
            return box.run_lean(argv, limits=limits, stdin=stdin, inprocess=argv[2], core=core)
        return box.run(argv, limits=limits, stdin=stdin, inprocess=argv[2] if fast else None)

    def grade_many(self, items: Iterable[tuple[str, str]]) -> Iterator[GradeResult]:
        """Results in input order, every core busy, a bounded window in flight. When the
        caller stops early (Ctrl-C, an exception, or closing the iterator), completions
        not started are dropped and those running stop before their next test."""
        start = (self._start_worker, (itertools.count(),))
        workers = ThreadPoolExecutor(self.jobs, initializer=start[0], initargs=start[1])
        cancel = threading.Event()

        def submit(item: tuple[str, str]) -> Future[GradeResult]:
            return workers.submit(self._graded, cancel, *item)

        try:
            for _, result in ordered_window(items, submit, Future.result, 4 * self.jobs):
                yield result
        except BaseException:
            cancel.set()
            workers.shutdown(wait=True, cancel_futures=True)
            raise
        workers.shutdown(wait=True)

    def _graded(self, cancel: threading.Event, problem_id: str, completion: str) -> GradeResult:
        """grade() in a grade_many worker, which ``cancel`` stops between tests."""
        self._worker.cancel = cancel
        try:
            return self.grade(problem_id, completion)
        finally:
            self._worker.cancel = None


class _Cancelled(Exception):
    """grade_many's caller stopped: the result will never be read."""
