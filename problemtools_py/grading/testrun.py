"""One completion's tests, in order, in a sandbox's open session: the first failure
decides. A test the wall clock stopped under its CPU limit is a timeout when the program
slept, and runs again only when the machine starved it (it waited, runnable, for a CPU):
at most ``Settings.retries`` times per completion, then ``harness_overload``. A jail that
fails is rebuilt once before the grader gives up on the completion."""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

from problemtools_py.grading.results import STATUS_OF, GradeResult, Settings, Status
from problemtools_py.judge import python2
from problemtools_py.judge.dataset_rule import first_difference
from problemtools_py.judge.interpreter import find
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits, RunResult, SandboxError
from problemtools_py.verdicts import Verdict, verdict_of_run

Tests = tuple[tuple[str, str], ...]
MAIN = "/prog/main.py"  # a completion's program, run as python3 runs it (sandbox/pylife)
ARGV = ("python3", MAIN)
WALL_SHARING = 8  # wall-clock runs sharing a core at most (see grading.service.backends)


def _dataset_rule(output: str, expected: str) -> str | None:
    found = first_difference(output, expected)
    return found[1] if found is not None else None


@dataclass(frozen=True)
class RunLimits:
    """One run's limits (Grader.execute). ``wall_clock``: as SandboxFusion runs programs,
    ``seconds`` is wall-clock seconds (and CPU seconds too), and stdout past
    ``output_bytes`` is dropped while the program goes on. ``memory_mb`` and
    ``compile_seconds``: the grader's own when None."""

    seconds: float
    output_bytes: int
    wall_clock: bool = False
    memory_mb: int | None = None
    compile_seconds: float | None = None


class Cancelled(Exception):
    """grade_many's caller stopped: the result will never be read."""


@dataclass
class TestRun:
    """One completion's tests run in one sandbox's session."""

    box: Sandbox
    settings: Settings
    reopen: Callable[[], None]  # a new session for the box (its jail failed)
    core: int | None = None  # run the programs on this core
    cancel: threading.Event | None = None
    retries: int = 0  # used so far
    argv: tuple[str, ...] | None = None  # a built program's command (None: main.py)
    # Why a test's output is not its expected one (None: it is); the dataset's rule
    # unless the tests say otherwise (a call-based problem's, see grading.callbased).
    compare: Callable[[str, str], str | None] | None = None
    binds: tuple[Bind, ...] = ()  # a jail of its own (no session): what it binds
    memory_mb: int | None = None  # the row's memory limit (None: the settings')
    out_of_memory: str | None = None  # the language's crash text that means MLE

    def run(self, tests: Tests, time_limit: float) -> GradeResult:
        """The completion's grade on ``tests`` under the settings' reward mode."""
        if self.settings.reward_mode == "first-n" and self.settings.first_n is not None:
            tests = tests[: self.settings.first_n]
        if self.settings.reward_mode == "pass-rate":
            return self._pass_rate(tests, time_limit)
        return self._in_order(tests, time_limit)

    def each(self, tests: Tests, time_limit: float) -> list[GradeResult]:
        """Each test's result on its own (auditdata: which tests reject a program), up
        to the first timeout (a program that loops would spend the limit on every test)."""
        found = []
        for index in range(len(tests)):
            found.append(self._in_order(tests[index : index + 1], time_limit))
            if found[-1].status is Status.TIMEOUT:
                break
        return found

    def _pass_rate(self, tests: Tests, time_limit: float) -> GradeResult:
        """Every test runs; the reward is the fraction passed, the status the first
        failure's (a starved test still makes it the machine's fault: no reward)."""
        passed, first, slowest = 0, None, 0.0
        for index in range(len(tests)):
            result = self._in_order(tests[index : index + 1], time_limit)
            if result.status is Status.HARNESS_OVERLOAD:
                return GradeResult(
                    None, result.status, index, 0.0, 0.0, index + 1, result.message, self.retries
                )
            slowest = max(slowest, result.cpu_seconds)
            if result.reward == 1.0:
                passed += 1
            elif first is None:
                first = GradeResult(
                    0.0,
                    result.status,
                    index,
                    result.cpu_seconds,
                    result.wall_seconds,
                    0,
                    result.message,
                )
        reward = passed / len(tests) if tests else 0.0
        if first is None:
            return GradeResult(
                reward, STATUS_OF[Verdict.AC], None, slowest, 0.0, len(tests), "", self.retries
            )
        return GradeResult(
            reward,
            first.status,
            first.test,
            first.cpu_seconds,
            first.wall_seconds,
            len(tests),
            first.message,
            self.retries,
        )

    def _in_order(self, tests: Tests, time_limit: float) -> GradeResult:
        slowest = slowest_wall = 0.0
        for index, (stdin, expected) in enumerate(tests):
            if self.cancel is not None and self.cancel.is_set():
                raise Cancelled
            run = self._one(stdin, expected, time_limit)
            if run is None:
                why = "starved by the machine (stopped by the wall clock while waiting for a CPU)"
                return self._result(None, Status.HARNESS_OVERLOAD, index, None, why)
            slowest = max(slowest, run.cpu_seconds)
            slowest_wall = max(slowest_wall, run.wall_seconds)
            if not run.ok:
                verdict = verdict_of_run(run.outcome)
                assert verdict is not None
                if verdict is Verdict.RTE and self._ran_out_of_memory(run):
                    verdict = Verdict.MLE  # (as verifyproblem judges it: judge.judging)
                detail = run.stderr.decode("utf-8", "replace")[-300:]
                if self.argv is None:  # (a Python program's)
                    detail = python2.named(detail)
                if run.task_limit is not None:  # (the cause, which its own words need not say)
                    detail = f"{run.describe()}\n{detail}"
                return self._result(0.0, STATUS_OF[verdict], index, run, detail)
            wrong = (self.compare or _dataset_rule)(run.stdout.decode("utf-8", "replace"), expected)
            if wrong is not None:
                return self._result(0.0, STATUS_OF[Verdict.WA], index, run, wrong)
        ok = STATUS_OF[Verdict.AC]
        return GradeResult(1.0, ok, None, slowest, slowest_wall, len(tests), "", self.retries)

    def _ran_out_of_memory(self, run: RunResult) -> bool:
        """Whether a crash's error output says the program ran out of memory, as its
        language's ``out_of_memory`` text has it (Python's MemoryError, C++'s bad_alloc,
        the JVM's OutOfMemoryError: languages.yaml)."""
        text = self.out_of_memory
        return text is not None and text.encode() in run.stderr

    def _result(
        self, reward: float | None, status: Status, index: int, run: RunResult | None, why: str
    ) -> GradeResult:
        cpu, wall = (run.cpu_seconds, run.wall_seconds) if run is not None else (0.0, 0.0)
        return GradeResult(reward, status, index, cpu, wall, index + 1, why, self.retries)

    def execute(self, stdin: str, run: RunLimits, memory_mb: int) -> RunResult | None:
        """One run with nothing to compare to (``/run_code``); None when starved."""
        memory = memory_mb << 20
        if run.wall_clock:  # (the wall clock is the limit: a run it stopped is a timeout)
            limits = Limits(
                run.seconds,
                memory,
                run.output_bytes,
                wall_seconds=run.seconds,
                truncate_output=True,
            )
            while (found := self._attempt(limits, stdin.encode("utf-8"))).starved_sharing(
                WALL_SHARING
            ):  # (unless the machine starved it below a fair share: see starved_sharing)
                if self.retries >= self.settings.retries:
                    return None
                self.retries += 1
            return found
        return self._limited(stdin, Limits(run.seconds, memory, run.output_bytes))

    def _one(self, stdin: str, expected: str, time_limit: float) -> RunResult | None:
        """One test's run; None when the machine starved it past the retries left."""
        output = self.settings.output_factor * len(expected.encode()) + self.settings.output_slack
        memory = (self.memory_mb or self.settings.memory_mb) << 20
        return self._limited(stdin, Limits(time_limit, memory, output))

    def _limited(self, stdin: str, limits: Limits) -> RunResult | None:
        time_limit = limits.cpu_seconds
        while True:
            run = self._attempt(limits, stdin.encode("utf-8"))
            if not run.starved_under(time_limit):
                return run  # (a sleeper the wall clock stopped is a timeout, not a retry)
            if self.retries >= self.settings.retries:
                return None
            self.retries += 1

    def _attempt(self, limits: Limits, data: bytes) -> RunResult:
        fd = os.memfd_create("stdin")
        try:
            os.write(fd, data)
            try:
                return self._start(limits, fd)
            except SandboxError:
                self.reopen()  # a failed jail is rebuilt, never reused; then one more try
                return self._start(limits, fd)
        finally:
            os.close(fd)

    def _start(self, limits: Limits, stdin: int) -> RunResult:
        """Straight to the session's jail when it offers that (Sandbox.run_lean), on this
        worker's core; else through the sandbox server."""
        os.lseek(stdin, 0, os.SEEK_SET)
        if self.argv is not None:  # a built program of another language: executed
            if self.box.lean_open:
                return self.box.run_lean(
                    self.argv, limits=limits, stdin=stdin, inprocess=None, core=self.core
                )
            return self.box.run(list(self.argv), limits=limits, stdin=stdin, binds=self.binds)
        python = self.settings.python
        fast = self.box.python_matches() and not self.settings.fresh_python and python is None
        argv = ARGV if python is None else (find(python).executable, MAIN)
        if self.box.lean_open:
            main = MAIN if fast else None  # None: the init executes python3
            return self.box.run_lean(
                argv, limits=limits, stdin=stdin, inprocess=main, core=self.core
            )
        return self.box.run(
            list(argv),
            limits=limits,
            stdin=stdin,
            binds=self.binds,
            inprocess=MAIN if fast else None,
        )


@functools.cache
def python_out_of_memory() -> str | None:
    """languages.yaml's out_of_memory text for Python 3 (the one a Python completion runs
    as), read once."""
    from problemtools_py.judge.languages import Languages

    found = Languages.load().get("python3")
    return found.out_of_memory if found is not None else None
