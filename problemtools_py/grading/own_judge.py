"""Grading by the problem's own judge (issue 44): a problem the dataset's comparator
cannot judge (see model.judgekind: a custom output validator, validator flags, an
interactive or multi-pass problem, partial scores) is graded as ``verifyproblem`` judges a
submission, by the same code: each test case judged by the package's output validator
(with its arguments), interactively or in passes as the package says, the cases graded
over the test groups. Its verdict is the completion's status; the reward is 1.0 for
accepted and 0.0 otherwise, or on a scoring problem the score over the most a program
can get (every case accepted), within [0, 1].

The problem is opened once per grader: its validators and graders built once, in a
sandbox pool of its own. Verdicts of validators are kept in memory by content (a
validator judges one output of one case once, however many completions write it), never
in the user's cache file. The judge's error (a validator that crashed, or exited with a
code other than 42 and 43) is ``judge_error``: the grader's side, no reward."""

from __future__ import annotations

import shutil
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Protocol

from problemtools_py.errors import FatalError
from problemtools_py.grading.compiled import Compiler, place, remove
from problemtools_py.grading.results import STATUS_OF, GradeResult, Settings, Status
from problemtools_py.grading.sessions import Sessions
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.held import HeldJail
from problemtools_py.judging.judged import JudgedCase
from problemtools_py.judging.package import PackageJudge
from problemtools_py.judging.policy import Policy, RunUntil
from problemtools_py.once import OnceEach
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits
from problemtools_py.sandbox.spawned import temp_dir
from problemtools_py.verdicts import Verdict


class KeptJail(HeldJail):
    """A completion's runs in a jail the grader keeps for the problem's programs, one
    after another (as it keeps one for the tests given with a call: grading.sessions):
    its program goes into the jail's program directory; the next program's runs go to a
    new fork of the jail's init, with nothing of this one in reach (see Sessions). It
    costs a fork where a jail opened per completion cost ~20 ms, and its runs are those
    of the grader's own warm interpreter."""

    def __init__(self, pool: SandboxPool, sessions: Sessions, exe: Executable, limits: Limits):
        super().__init__(pool, exe, limits)
        self.sessions = sessions
        self._lease: AbstractContextManager[Sandbox] | None = None
        self._placed: list[Path] = []

    def box(self) -> Sandbox:
        if self._box is None:
            lease = self.pool.sandbox()
            box = lease.__enter__()
            try:
                memory = self.limits.memory_bytes >> 20
                work = self.sessions.session(box, str(self.exe.directory), memory)
                self._placed = place(self.exe, work)
            except BaseException:
                self.sessions.forget(box)
                lease.__exit__(None, None, None)
                raise
            self._lease, self._box = lease, box
            self._fast = self.exe.inprocess and box.python_matches()
        return self._box

    def _discard(self) -> None:
        self._release(failed=True)  # (its session is never reused)

    def close(self) -> None:
        self._release(failed=False)

    def _release(self, failed: bool) -> None:
        box, lease, self._box, self._lease = self._box, self._lease, None, None
        remove(self._placed)
        self._placed = []
        if box is not None and failed:
            self.sessions.forget(box)
        if lease is not None:
            lease.__exit__(None, None, None)


class Judged(Protocol):
    """A problem graded by its judge, as a source gives it (grading.problems.Fetched)."""

    @property
    def tests(self) -> tuple[tuple[str, str], ...]: ...

    @property
    def time_limit(self) -> float: ...

    @property
    def judge_json(self) -> str: ...


class JudgedProblem:
    """One package, graded by its judge (judging.package) into a reward; used by many
    threads at once."""

    def __init__(
        self,
        root: Path,
        time_limit: float,
        pool: SandboxPool,
        jobs: int = 1,
        every_case: bool = False,
        python: str | None = None,
        owned: bool = False,
        sessions: tuple[Sessions, SandboxPool] | None = None,
        retries: int = 2,
    ) -> None:
        """``pool``: where its runs go (a submission's jail and its validator's at once,
        per thread). ``every_case``: judge every test case (a pass rate), not only up to
        the first that fails. ``python``: the interpreter Python programs run with.
        ``owned``: ``root`` is removed at the close. ``sessions``: where the programs run
        (see KeptJail), with the pool they keep their jails in (no other run may take
        one of its sandboxes); else in jails held for each one's cases, as verifyproblem
        runs them. ``retries``: times a test case the machine starved runs again before
        the completion is the machine's fault (``harness_overload``: no reward)."""
        self.root = root if owned else None
        until = RunUntil.EVERY_CASE if every_case else RunUntil.FIRST_FAILURE
        policy = Policy(jobs=max(1, jobs), run_until=until, python=python)
        jails = None
        if sessions is not None:
            kept, boxes = sessions

            def jails(exe: Executable, limits: Limits) -> HeldJail:
                return KeptJail(boxes, kept, exe, limits)

        self.package = PackageJudge(root, time_limit, pool, policy, jails, retries)
        self.error = self.package.error

    def close(self) -> None:
        self.package.close()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)

    @property
    def cases(self) -> int:
        return self.package.cases

    def grade(self, exe: Executable) -> GradeResult:
        """A built program's grade: every test case judged (up to the first failure of a
        pass-fail problem), then graded over the test groups."""
        if self.error:
            return GradeResult(None, Status.JUDGE_ERROR, message=self.error[:500])
        found = self.package.judge(exe)
        judged, index, first = found.judged, found.failed, found.first_failure
        if found.starved is not None:  # (it ran again, and was starved each time)
            why = "starved by the machine (stopped by the wall clock while waiting for a CPU)"
            tries = self.package.cases_judge.starved_retries
            return GradeResult(
                None,
                Status.HARNESS_OVERLOAD,
                found.starved,
                0.0,
                0.0,
                found.starved + 1,
                why,
                tries,
            )
        cpu = first.cpu if first is not None else max((c.cpu for c in judged), default=0.0)
        message = (first.message if first is not None else "")[:500]
        if found.verdict is Verdict.JE or (first is not None and first.verdict is Verdict.JE):
            why = found.error or message or "the judge failed"
            return GradeResult(None, Status.JUDGE_ERROR, index, cpu, 0.0, len(judged), why[:500])
        if self.package.scoring:
            top = self.package.top()
            reward = min(1.0, max(0.0, (found.score or 0.0) / top)) if top > 0 else 0.0
        elif self.package.ctx.policy.every_case and judged:  # a pass rate
            reward = self._pass_rate(judged)
        else:
            reward = 1.0 if found.verdict is Verdict.AC else 0.0
        score = found.score if self.package.scoring else None
        status = STATUS_OF[found.verdict]
        return GradeResult(reward, status, index, cpu, 0.0, len(judged), message, judge_score=score)

    def _pass_rate(self, judged: list[JudgedCase]) -> float:
        """The share of the test groups below data/secret passed (every case accepted),
        or, without such groups, the share of the test cases accepted."""
        accepted = {c.case.name for c in judged if c.verdict is Verdict.AC}
        groups = self.package.groups()
        if groups:
            return sum(group <= accepted for group in groups) / len(groups)
        return len(accepted) / len(judged)


class Judges:
    """The judged problems a grader opened, by package, each kept while it is in use and
    among the KEEP used last; their runs share one sandbox pool."""

    KEEP = 16

    def __init__(self, jobs: int, settings: Settings) -> None:
        self.jobs, self.settings = jobs, settings
        self.every_case = settings.reward_mode == "pass-rate"
        self.pool = SandboxPool(2 * max(1, jobs) + 1)  # validators, interactive pairs
        self.kept = SandboxPool(max(1, jobs) + 1)  # the programs' kept jails (KeptJail)
        self.sessions = Sessions(settings)
        self._open: OrderedDict[str, JudgedProblem] = OrderedDict()
        self._users: dict[int, int] = {}  # id(problem) -> callers using it now
        self._lock = threading.Lock()
        self._opening: OnceEach[str, JudgedProblem] = OnceEach()

    @contextmanager
    def using(self, root: str, found: Judged) -> Iterator[JudgedProblem]:
        """The problem ``root`` names (its id), open for the caller until it is done with
        it: its judge written out as a package the first time."""
        while True:
            judged = self._opening.get(root, lambda: self._make(root, found))
            with self._lock:
                if self._open.get(root) is judged:  # (else retired meanwhile: made again)
                    self._open.move_to_end(root)
                    self._users[id(judged)] = self._users.get(id(judged), 0) + 1
                    break
        try:
            yield judged
        finally:
            with self._lock:
                self._users[id(judged)] -= 1
                done = not self._users[id(judged)] and self._open.get(root) is not judged
                if not self._users[id(judged)]:
                    del self._users[id(judged)]
            if done:
                judged.close()

    def _make(self, root: str, found: Judged) -> JudgedProblem:
        from problemtools_py.dataset.judges import materialize, parse

        where = Path(temp_dir("judge"))
        try:
            judge = parse(found.judge_json, len(found.tests), where, 0)
            materialize(judge, list(found.tests), where)
            judged = JudgedProblem(
                where,
                found.time_limit,
                self.pool,
                self.jobs,
                self.every_case,
                self.settings.python,
                owned=True,
                sessions=(self.sessions, self.kept),
                retries=self.settings.retries,
            )
        except BaseException:
            shutil.rmtree(where, ignore_errors=True)
            raise
        idle = []
        with self._lock:
            self._open[root] = judged
            while len(self._open) > self.KEEP:  # the one used longest ago goes
                old_root, old = self._open.popitem(last=False)
                self._opening.forget(old_root)
                if not self._users.get(id(old)):
                    idle.append(old)  # (else its last user closes it)
        for old in idle:
            old.close()
        return judged

    def grade(
        self,
        pid: str,
        found: Judged,
        program: tuple[str, str, Executable | None],
        compiler: Compiler,
    ) -> GradeResult:
        """A completion's program (its language, text and build, see Grader._prepare) on
        the problem ``pid``, by its judge; the grader's failure its ``grader_error``."""
        language, code, exe = program
        try:
            if exe is None:  # (a Python program: built as the judge builds it)
                built = compiler.build(code, language)
                if isinstance(built, GradeResult):
                    return built
                exe = built
            with self.using(pid, found) as judged:
                return judged.grade(exe)
        except FatalError:
            raise
        except Exception as exc:
            why = f"{type(exc).__name__}: {exc}"[:300]
            return GradeResult(None, Status.GRADER_ERROR, message=why)

    def close(self) -> None:
        with self._lock:
            found = list(self._open.values())
            self._open.clear()
        for judged in found:
            judged.close()
        self.sessions.close()
        self.kept.close()
        self.pool.close()
