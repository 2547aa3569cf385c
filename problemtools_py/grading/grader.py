"""The reward: 1.0 when the program passes every test of the problem, in order, within
``time_limit_s`` CPU seconds each, exiting 0, by the dataset comparator; else 0.0, with
the status of the first failure.

A :class:`Grader` opens a dataset (or a directory of problem packages) once. Each
completion runs in one jail of the judging core's sandbox for all its tests (a fork per
test from the sandbox server's warm interpreter); the grading process itself never forks
programs. How a completion's tests run, and what counts as the machine's fault rather
than the program's, is :mod:`.testrun`. Any failure on the grader's side is that
completion's ``grader_error`` (no reward), never the end of the batch."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from problemtools_py.cpus import usable_cores
from problemtools_py.errors import FatalError
from problemtools_py.grading import callbased, runfiles
from problemtools_py.grading.compiled import Compiler, place_program, remove
from problemtools_py.grading.extract import extract_program
from problemtools_py.grading.problems import (
    Fetched,
    NoProblems,
    ProblemSource,
    RecentProblems,
    Unavailable,
    open_source,
)
from problemtools_py.grading.results import (
    MAX_COMPLETION_CHARS,
    MAX_PROGRAM_BYTES,
    GradeResult,
    Settings,
    Status,
    too_large,
)
from problemtools_py.grading.runfiles import RunFiles
from problemtools_py.grading.sessions import Sessions
from problemtools_py.grading.syntax import SyntaxCheck, syntax_error
from problemtools_py.grading.testrun import Cancelled, RunLimits, TestRun, python_out_of_memory
from problemtools_py.sandbox import cores
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import RunResult
from problemtools_py.window import ordered_window

T = TypeVar("T")
# what grade_many grades: (problem_id, completion) or (problem_id, completion, memory_mb)
Item = tuple[str, str] | tuple[str, str, int | None]

if TYPE_CHECKING:
    from problemtools_py.dataset.reader import Dataset
    from problemtools_py.grading.own_judge import Judges
    from problemtools_py.judge.compile import Executable


class Grader:
    """``Grader(path)``: a dataset directory or a directory of problem packages."""

    def __init__(
        self,
        source: Path | str | Dataset | None,
        settings: Settings | None = None,
        jobs: int | None = None,
        pool: SandboxPool | None = None,
    ) -> None:
        """``source`` None: no problems of its own, only :meth:`grade_tests`. ``pool``:
        sandboxes the caller started ahead (see SandboxPool.prestart); the grader closes
        it with its own."""
        self.settings = settings or Settings()
        self.jobs = jobs or usable_cores()
        self.pool = pool if pool is not None else SandboxPool(self.jobs + 1)
        self._lock = threading.Lock()
        self.sessions = Sessions(self.settings)
        self._syntax = SyntaxCheck()
        self._recent = RecentProblems()  # (tests, time limit and judge, kept)
        self._judges: Judges | None = None  # problems graded by their own judge
        self._worker = threading.local()  # .cancel: a grade_many worker's stop
        self._built: Compiler | None = None  # other languages' compiler, made when needed
        # Each worker's sandbox and jail start now, while the source is opened (pyarrow's
        # import and the dataset's metadata: 0.2 s that a batch of 80 used to wait twice)
        self._warming = [threading.Thread(target=self._warm, daemon=True) for _ in range(self.jobs)]
        for thread in self._warming:
            thread.start()
        try:
            self.problems: ProblemSource = (
                open_source(source) if source is not None else NoProblems()
            )
        except BaseException:
            self.close()
            raise

    def _warm(self) -> None:
        """A sandbox with its session open, ready in the pool (a failure here is met again,
        and reported, by the first completion)."""
        with contextlib.suppress(Exception), self.pool.sandbox() as box:
            self.sessions.session(box)

    def _warmed(self) -> None:
        """Wait for the warm-up (a worker taking a sandbox before would start another)."""
        for thread in self._warming:
            thread.join()

    def close(self) -> None:
        self._warmed()
        self.sessions.close()
        self._syntax.close()
        if self._built is not None:
            self._built.close()
        if self._judges is not None:
            self._judges.close()
        problems: ProblemSource | None = getattr(self, "problems", None)  # (None: it failed)
        if problems is not None:
            problems.close()
        self.pool.close()

    def __enter__(self) -> Grader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _on_core(self, shared: bool = False) -> AbstractContextManager[int | None]:
        """A core of the node's budget for the block, this thread on it with
        ``Settings.pin`` (see sandbox.cores.leased; ``shared``: wall-clock runs)."""
        return cores.leased(shared, pin=self.settings.pin)

    def grade(
        self,
        problem_id: str,
        completion: str,
        language: str | None = None,
        memory_mb: int | None = None,
    ) -> GradeResult:
        try:
            found = self._recent.get(self.problems, problem_id)
        except Unavailable as exc:  # (a package kattis2parquet leaves out: no reward)
            return GradeResult(None, Status.UNKNOWN_PROBLEM, message=str(exc)[:300])
        with self._on_core():  # (its build too: see _on_core)
            if found.judge_json:  # graded by the problem's own judge (see grading.own_judge)
                return self.grade_by_judge(problem_id, found, completion, language)
            return self.grade_tests(
                found.tests, found.time_limit, completion, language, memory_mb=memory_mb
            )

    def grade_by_judge(
        self, key: str, found: Fetched, completion: str, language: str | None = None
    ) -> GradeResult:
        """``completion`` graded by the judge ``found`` carries (its tests, time limit and
        ``judge_json``), opened once per ``key``. A judge that does not fit its tests is a
        FatalError (the caller's)."""
        with self._on_core():
            prepared = self._prepare(completion, language, None)
            if isinstance(prepared, GradeResult):
                return prepared
            with self._lock:
                if self._judges is None:
                    from problemtools_py.grading.own_judge import Judges

                    self._judges = Judges(self.jobs, self.settings)
            return self._judges.grade(key, found, prepared, self._compiler())

    def grade_tests(
        self,
        tests: tuple[tuple[str, str], ...],
        time_limit: float,
        completion: str,
        language: str | None = None,
        call: callbased.Call | None = None,
        memory_mb: int | None = None,
    ) -> GradeResult:
        """``completion`` on ``tests`` (stdin, expected stdout) given by the caller; its
        language from the fence tag (among ``Settings.languages``) or ``language``. With
        ``call``, the tests call a Python function (see grading.callbased)."""
        lazy = call is None and bool(tests)  # (see SyntaxCheck.after)
        with self._on_core():
            prepared = self._prepare(completion, language, call, syntax=not lazy)
            if isinstance(prepared, GradeResult):
                return prepared
            found = self._in_session(
                prepared, call, lambda run: [run.run(tests, time_limit)], memory_mb
            )
        result = found if isinstance(found, GradeResult) else found[0]
        return self._syntax.after(prepared[0], prepared[1], result) if lazy else result

    def grade_each(
        self,
        tests: tuple[tuple[str, str], ...],
        time_limit: float,
        completion: str,
        language: str | None = None,
    ) -> list[GradeResult]:
        """Each test's own result (in one session, up to a timeout: see TestRun.each),
        for auditdata; one for all when the program is not run (``compile_error``...)."""
        with self._on_core():
            prepared = self._prepare(completion, language, None)
            if isinstance(prepared, GradeResult):
                return [prepared]
            found = self._in_session(prepared, None, lambda run: run.each(tests, time_limit))
        return [found] if isinstance(found, GradeResult) else found

    def _in_session(
        self,
        prepared: tuple[str, str, Executable | None],
        call: callbased.Call | None,
        how: Callable[[TestRun], list[GradeResult]],
        memory_mb: int | None = None,
    ) -> list[GradeResult] | GradeResult:
        """``how`` with a TestRun of the program in a session of its own."""
        code_language, code, exe = prepared
        run: TestRun | None = None
        memory = memory_mb or self.settings.memory_mb
        self._warmed()
        try:
            with self.pool.sandbox() as box:
                work = self.sessions.session(box, f"{code_language}\0{code}", memory)
                placed = place_program(work, code, exe)
                heap = memory - (exe.extra_memory_mb if exe else 0)
                run = TestRun(
                    box,
                    self.settings,
                    lambda: self.sessions.reopen(box),
                    None,  # (the core leased by this thread: see _on_core)
                    getattr(self._worker, "cancel", None),
                    argv=tuple(exe.argv(max(64, heap))) if exe is not None else None,
                    compare=callbased.difference if call is not None else None,
                    memory_mb=memory,
                    out_of_memory=exe.out_of_memory if exe else python_out_of_memory(),
                )
                try:
                    return how(run)
                finally:
                    remove(placed)
        except (Cancelled, FatalError):
            raise
        except Exception as exc:  # the grader's failure: this completion's status, no reward
            retries = 0
            if run is not None:
                self.sessions.forget(run.box)
                retries = run.retries
            why = f"{type(exc).__name__}: {exc}"[:300]
            return GradeResult(None, Status.GRADER_ERROR, message=why, retries=retries)

    def _prepare(
        self,
        completion: str,
        language: str | None,
        call: callbased.Call | None,
        syntax: bool = True,
    ) -> tuple[str, str, Executable | None] | GradeResult:
        """(language, program, its build), or the result ending it (syntax: SyntaxCheck.after)."""
        if len(completion) > MAX_COMPLETION_CHARS:  # (counted in characters: not encoded)
            return too_large("the completion", len(completion), MAX_COMPLETION_CHARS, "characters")
        found = self._program(completion, language)
        if found is None:
            return GradeResult(0.0, Status.NO_CODE)
        code_language, code = found
        if (size := len(code.encode())) > MAX_PROGRAM_BYTES:
            return too_large("the program", size, MAX_PROGRAM_BYTES, "bytes")
        if code_language != "python3":
            if call is not None:
                other = f"the tests call a Python function; the program is in {code_language}"
                return GradeResult(0.0, Status.NO_CODE, message=other)
            built = self._compiler().build(code, code_language)
            return built if isinstance(built, GradeResult) else (code_language, code, built)
        why = self._syntax.error(code) if syntax else None  # (see grading.syntax)
        if why is not None:
            return syntax_error(why)
        return code_language, callbased.harness(code, call) if call else code, None

    def execute(
        self, code: str, language: str, stdin: str, limits: RunLimits
    ) -> RunResult | GradeResult:
        """Run a program (its text, no fences) once on ``stdin``: its run, or the result
        that ended it first (``compile_error``, ``grader_error``, ``harness_overload``,
        ``code_too_large``), under ``limits`` (see RunLimits). A failure of the grader's
        side is its ``grader_error``, never an exception."""
        return self.execute_files(code, language, stdin, limits, RunFiles())[0]

    def execute_files(
        self, code: str, language: str, stdin: str, limits: RunLimits, files: RunFiles
    ) -> tuple[RunResult | GradeResult, dict[str, bytes]]:
        """:meth:`execute` with ``files`` written into the working directory before the
        run, and the files it asks for read back after it (see grading.runfiles)."""
        try:
            with self._on_core(shared=limits.wall_clock):  # (a wall clock shares the core)
                return self._execute(code, language, stdin, limits, files)
        except (Cancelled, FatalError):
            raise
        except Exception as exc:
            why = f"{type(exc).__name__}: {exc}"[:300]
            return GradeResult(None, Status.GRADER_ERROR, message=why), {}

    def _execute(
        self, code: str, language: str, stdin: str, limits: RunLimits, files: RunFiles
    ) -> tuple[RunResult | GradeResult, dict[str, bytes]]:
        if (size := len(code.encode())) > MAX_PROGRAM_BYTES:
            return too_large("the program", size, MAX_PROGRAM_BYTES, "bytes"), {}
        exe = None
        if language != "python3":
            built = self._compiler().build(code, language, limits.compile_seconds)
            if isinstance(built, GradeResult):
                return built, {}
            exe = built
        self._warmed()
        memory = limits.memory_mb or self.settings.memory_mb
        heap = memory - (exe.extra_memory_mb if exe else 0)
        argv = tuple(exe.argv(max(64, heap))) if exe is not None else None
        fetched: dict[str, bytes] = {}
        with self.pool.sandbox() as box:
            if files:
                found, fetched = runfiles.run_in(
                    box, self.sessions, (code, exe, argv), stdin, limits, files
                )
            else:
                work = self.sessions.session(box, f"{language}\0{code}", memory)
                placed = place_program(work, code, exe)
                run = TestRun(box, self.settings, lambda: self.sessions.reopen(box), argv=argv)
                try:
                    found = run.execute(stdin, limits, memory)
                finally:
                    remove(placed)
        if found is None:
            why = "starved by the machine"
            return GradeResult(None, Status.HARNESS_OVERLOAD, message=why), fetched
        return found, fetched

    def extract(self, completion: str, language: str | None = None) -> tuple[str, str] | None:
        """(language, program) of a completion, as grading reads it."""
        return self._program(completion, language)

    def _program(self, completion: str, language: str | None) -> tuple[str, str] | None:
        """(language, program); with only Python allowed, the dataset's rule (and no
        compiler is made: the judge's language codes are not needed then)."""
        others = language is not None or self.settings.languages != ("python3",)
        known = self._compiler().known() if others else frozenset()
        languages = frozenset(self.settings.languages)
        return extract_program(completion, languages, self.settings.raw, language, known)

    def languages(self) -> frozenset[str]:
        """The judge's codes of the languages this machine builds and runs."""
        return self._compiler().installed()

    def compiles(self, language: str) -> bool:
        """Whether the language has a compile step (else its programs are run as given)."""
        return bool(self._compiler().languages.table[language].compile)

    def _compiler(self) -> Compiler:
        with self._lock:
            if self._built is None:
                self._built = Compiler(self.jobs)
            return self._built

    def workers(self) -> ThreadPoolExecutor:
        """``jobs`` threads, each on a core of the node's budget while it grades (see
        _on_core): the pool grade_many runs on, for callers that submit completions
        themselves (the service, a batch of rewards). The caller shuts it down."""
        return ThreadPoolExecutor(self.jobs)

    def grade_many(self, items: Iterable[Item]) -> Iterator[GradeResult]:
        """Each (problem_id, completion[, memory_mb]) graded: results in input order,
        every core busy, a bounded window in flight. When the
        caller stops early (Ctrl-C, an exception, or closing the iterator), completions
        not started are dropped and those running stop before their next test."""
        workers = self.workers()
        cancel = threading.Event()

        def submit(item: Item) -> Future[GradeResult]:
            return workers.submit(self._graded, cancel, *item)

        try:
            for _, result in ordered_window(items, submit, Future.result, 4 * self.jobs):
                yield result
        except BaseException:
            cancel.set()
            workers.shutdown(wait=True, cancel_futures=True)
            raise
        workers.shutdown(wait=True)

    def _graded(
        self, cancel: threading.Event, problem_id: str, completion: str, memory: int | None = None
    ) -> GradeResult:
        """grade() in a grade_many worker, which ``cancel`` stops between tests."""
        return self.cancellable(
            cancel, lambda: self.grade(problem_id, completion, memory_mb=memory)
        )

    def cancellable(self, cancel: threading.Event, call: Callable[[], T]) -> T:
        """``call()`` (a grading of this grader's) in this thread, stopped between tests
        (raising Cancelled) once ``cancel`` is set."""
        self._worker.cancel = cancel
        try:
            return call()
        finally:
            self._worker.cancel = None
