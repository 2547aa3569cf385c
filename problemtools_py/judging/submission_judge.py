"""One submission on the test cases, one after another: each case's outcome, cached by
content (the program, the files, the validator, the limits), the runs in jails kept for
the submission and its custom output validator (see judge/held.py)."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from problemtools_py.digests import data_digest, digest
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.held import FORKED_FIRST, HeldJail, HeldValidator, worth_fresh_init
from problemtools_py.judge.judging import CaseJudge, CaseResult, run_limits
from problemtools_py.judge.validators import CustomValidator
from problemtools_py.judging.answers import AnswerChecker
from problemtools_py.judging.breaks import Breaks
from problemtools_py.judging.judged import JudgedCase
from problemtools_py.judging.rounds import cases_of
from problemtools_py.judging.session import Session
from problemtools_py.judging.sharing import CaseQueue
from problemtools_py.judging.visualize import OutputVisualizer
from problemtools_py.model.problem import Submission, TestCase
from problemtools_py.rulesets import Ruleset
from problemtools_py.sandbox import cores
from problemtools_py.sandbox.results import Limits, RunResult
from problemtools_py.scratch import scratch_dir
from problemtools_py.verdicts import Verdict


def _maybe_starved(run: RunResult, limits: Limits) -> bool:
    """Whether a run stopped by the wall clock under its CPU limit may owe that to the
    machine (such an outcome is not cached: the next verification runs it again). A run
    that slept, its wait for a CPU known and small, owes it to itself (an interactive
    one, when its validator was not kept waiting either: see CaseJudge._interactive)."""
    return run.starved_under(limits.cpu_seconds)


def expects_failure(sub: Submission) -> bool:
    """Whether ``sub`` claims some test case fails (its claim requires a verdict other than
    AC): where the first failure ends its runs, they will likely be few."""
    required = sub.expectation.required if sub.expectation is not None else None
    return bool(required) and Verdict.AC not in (required or ())


class SubmissionJudge:
    def __init__(
        self, ctx: Session, jails: Callable[[Executable, Limits], HeldJail] | None = None
    ) -> None:
        """``jails``: where a program's runs go: a jail held for its cases (None), or one
        a caller keeps for many programs (grading: see grading.own_judge.KeptJail)."""
        self.ctx = ctx
        self.cases = cases_of(ctx)
        self.checker = AnswerChecker(ctx)
        room = ctx.scratch_room(ctx.problem.config.limits.output_mib)
        self.work = scratch_dir("ptpy-verify-", room)
        self.work.chmod(0o711)  # (see HeldValidator)
        self.cache = ctx.verdict_cache()
        self.stop_early = not ctx.problem.config.scoring and not ctx.policy.every_case
        legacy_breaks = (
            ctx.problem.legacy
            and not ctx.policy.every_case
            and ctx.policy.ruleset is not Ruleset.DOMJUDGE
        )
        self.breaks = Breaks(ctx.problem, self.cases) if legacy_breaks else None
        config = ctx.problem.config
        self.passes = config.limits.validation_passes if config.multi_pass else 1
        bapctools = ctx.policy.ruleset is Ruleset.BAPCTOOLS
        # an interactive validator's rejection before the submission is done stands even if
        # the submission then runs over the time limit (problemtools); bt run says TLE
        self.final_first = not bapctools
        # a run that ends in time with its output cut at the limit is OLE (problemtools,
        # DOMjudge: see session.submission_limits); bt run judges the output it kept
        self.truncated_is_ole = not bapctools
        # DOMjudge's judgehost: each judging on a core of its own (its judgedaemon's
        # cpuset), the time limit on CPU and wall time alike
        self.domjudge = ctx.policy.ruleset is Ruleset.DOMJUDGE
        self.visualizer = OutputVisualizer(ctx)
        self.jails = jails
        # times a case the machine starved (see _maybe_starved) runs again before its
        # verdict stands, marked starved (grading gives it no reward: grading.own_judge)
        self.starved_retries = 2

    def judge_case(
        self,
        exe: Executable,
        case: TestCase,
        cpu_limit: float,
        tl: float | None,
        name: str = "",
        held: tuple[HeldJail, HeldValidator | None] | None = None,
    ) -> JudgedCase:
        """One run, or its result from an earlier run of the same program on the same
        files with the same validator and limits (judging results are cached by content)."""
        checker = self.checker.for_case(case)
        limits = self.ctx.submission_limits(cpu_limit)
        root = self.ctx.problem.root
        key = self._key(exe, case, checker, limits, tl)
        cached = self.cache.get(key) if not self.visualizer.active else None
        if cached is not None:
            return JudgedCase(
                case,
                Verdict(cached["at_tl"]),
                Verdict(cached["at_margin"]),
                float(cached["cpu"]),
                cached["score"],
                str(cached["message"]),
                cached.get("multiplier"),
                bool(cached.get("final", False)),
            )
        config = self.ctx.problem.config
        jail, validator_jail = held or (None, None)
        judge = CaseJudge(
            self.ctx.pool,
            checker,
            limits,
            config.interactive,
            self.passes,
            jail,
            validator_jail,
            memo=self.checker if not self.visualizer.active else None,  # (it reads feedback)
            keep_feedback=self.visualizer.active,
            reject_first_final=self.final_first,
            truncated_is_ole=self.truncated_is_ole,
            hold_output_end=not self.domjudge,
        )
        for again in range(self.starved_retries, -1, -1):  # (a starved run runs again)
            work = Path(tempfile.mkdtemp(dir=self.work))
            work.chmod(0o711)  # (a held validator finds its feedback directory in it)
            result = judge.judge(exe, root / case.files[".in"], root / case.files[".ans"], work)
            overloaded = result.run is not None and _maybe_starved(result.run, limits)
            if not overloaded or not again:
                break
        if self.ctx.progress:
            self.ctx.progress("judging", 1)
        if result.validation is not None:
            self.visualizer.after(name, case, work)
        verdict = result.verdict
        outcome = JudgedCase(
            case,
            verdict,
            verdict,
            self._time(result),
            result.score,
            result.message,
            result.multiplier,
            result.final,
        )
        at_tl = outcome.at(tl) if tl is not None else verdict
        outcome = replace(outcome, verdict=at_tl, starved=overloaded)
        if verdict is not Verdict.JE and not overloaded:
            self.cache.put(
                key,
                {
                    "at_tl": at_tl.value,
                    "at_margin": verdict.value,
                    "final": result.final,
                    "cpu": result.cpu_seconds,
                    "score": result.score,
                    "message": result.message,
                    "multiplier": result.multiplier,
                },
            )
        return outcome

    def _time(self, result: CaseResult) -> float:
        """The time a case counts against the limit: its CPU time; by DOMjudge's rules the
        wall time too, where longer (runguard's time limit is on both: a program that
        sleeps, or stops its parent, runs out of time)."""
        run = result.run
        # (not a run the judge ended: an interactive one, its validator done, was given
        # a grace time of ours)
        if run is None or not self.domjudge or run.judge_killed:
            return result.cpu_seconds
        return max(result.cpu_seconds, run.wall_seconds)

    def _key(
        self, exe: Executable, case: TestCase, checker: object, limits: Limits, tl: float | None
    ) -> str:
        root = self.ctx.problem.root
        if isinstance(checker, CustomValidator):
            judge_id = ["custom", checker.executable.directory.name, *checker.args]
            judge_id += ["score with WA"] if checker.score_with_wrong_answer else []
        else:
            judge_id = ["default", *getattr(checker, "args", [])]
        judge_id += [] if self.final_first else ["no verdict final before the time"]
        return digest(
            "case-v8",  # v8: output past the limit dropped and the run on, by Kattis' rules too
            exe.directory.name,
            data_digest(root / case.files[".in"], root),
            data_digest(root / case.files[".ans"], root),
            *judge_id,
            repr(
                (
                    limits.cpu_seconds,
                    limits.memory_bytes,
                    limits.output_bytes,
                    limits.truncate_output,
                    limits.unlimited_stack,
                    tl,
                    self.passes,
                    self.ctx.problem.config.interactive,
                    self.domjudge,
                )
            ),
        )

    def run(
        self, exe: Executable, cpu_limit: float, tl: float | None, sub: Submission | None = None
    ) -> list[JudgedCase]:
        """``exe`` (of ``sub``) on every case, or up to its first failure, in one jail kept
        for its runs (interactive ones pair two jails per case). Threads left with nothing
        else to do may judge some of its cases, in jails of their own (see sharing.py);
        not those of a submission expected to fail early."""
        likely_short = self.stop_early and sub is not None and expects_failure(sub)
        skip = self.breaks.after if self.breaks is not None else None
        queue: CaseQueue[JudgedCase] = CaseQueue(len(self.cases), self.stop_early, skip)

        def helper() -> bool:
            return self.serve(queue, exe, cpu_limit, tl, sub, helping=True)

        shared = not likely_short and not self.visualizer.active
        with self.ctx.sharing.offer(queue, helper) if shared else contextlib.nullcontext():
            self.serve(queue, exe, cpu_limit, tl, sub, FORKED_FIRST if likely_short else 0)
        while not queue.settle():  # (a case a failed helper gave back)
            self.serve(queue, exe, cpu_limit, tl, sub)
        return queue.outcomes()

    def serve(
        self,
        queue: CaseQueue[JudgedCase],
        exe: Executable,
        cpu_limit: float,
        tl: float | None,
        sub: Submission | None,
        forked_first: int = 0,
        helping: bool = False,
    ) -> bool:
        """Judge the queue's cases until none is left, in jails opened for them (False:
        stopped early). A helper that fails gives its case back (its owner judges it, and
        fails as it would have)."""
        name = sub.rel if sub is not None else ""
        limits = run_limits(self.ctx.submission_limits(cpu_limit), exe)
        interactive = self.ctx.problem.config.interactive
        custom = self.checker.custom
        fresh = worth_fresh_init(queue.left())
        with contextlib.ExitStack() as stack:
            if self.domjudge:  # (its runs, and all their processes, on the leased core)
                stack.enter_context(cores.leased())
            held = stack.enter_context(
                self.jails(exe, limits)
                if self.jails is not None
                else HeldJail(
                    self.ctx.pool, exe, limits, fresh=fresh, forked_first=forked_first, cwd=exe.cwd
                )
            )
            checker = None
            if custom is not None and not interactive:
                data, pool, work = self.ctx.problem.root / "data", self.ctx.pool, self.work
                checker = HeldValidator(
                    pool, custom.executable, custom.limits, data, work, fresh, forked_first
                )
                stack.enter_context(checker)
            while (index := queue.take()) is not None:
                if self.ctx.closing.is_set():  # (runs ahead, no longer wanted)
                    queue.give_back(index)
                    queue.stop()
                    return False
                try:
                    outcome = self.judge_case(
                        exe,
                        self.cases[index],
                        cpu_limit,
                        tl,
                        name,
                        None if interactive else (held, checker),
                    )
                except BaseException:
                    queue.give_back(index)
                    if helping:
                        return False
                    queue.stop()
                    raise
                queue.put(index, outcome, outcome.verdict is not Verdict.AC)
        return True
