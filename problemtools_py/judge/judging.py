"""Judging one program on one test case: run it (interactively, in passes), then validate."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from problemtools_py import jailfiles
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.judge.held import HeldJail, HeldValidator
from problemtools_py.judge.validators import (
    NEXTPASS,
    WRONG_ANSWER,
    CustomValidator,
    DatasetValidator,
    DefaultValidator,
    Validation,
    fresh_feedback_dir,
)
from problemtools_py.sandbox import cores
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits, Outcome, RunResult, SandboxError
from problemtools_py.verdicts import Verdict, verdict_of_run

OutputValidator = DefaultValidator | DatasetValidator | CustomValidator

# Seconds a submission may linger once its validator rejected it (the verdict stands
# whatever it does then). After an accepting validator it runs on under its own limits:
# spinning after the correct answer is a TLE, as in problemtools.
INTERACTIVE_GRACE = 1.0
FLOODED = "the output validator ran out of memory on the submission's output"


class ValidationMemo(Protocol):
    """Custom validators' answers kept by content (the validator and its arguments, the
    input, the answer and the output): a validator is a deterministic program, and two
    submissions (or a submission and the answer file itself) often write the same output.
    ``key`` hashes the files once; ``known`` and ``remember`` take what it made."""

    def key(
        self, checker: CustomValidator, input_path: Path, answer: Path, output: Path
    ) -> str: ...

    def known(self, key: str) -> Validation | None: ...

    def remember(self, key: str, result: Validation) -> None: ...


@dataclass(frozen=True)
class CaseResult:
    """One program judged on one test case: the verdict, the runs and the validation."""

    verdict: Verdict
    run: RunResult | None  # the last pass's run of the submission
    validation: Validation | None
    cpu_seconds: float  # summed over passes
    message: str = ""
    score: float | None = None
    passes: int = 1
    multiplier: float | None = None  # score_multiplier.txt

    @property
    def final(self) -> bool:
        """The verdict stands whatever CPU time the submission used after it was decided
        (an interactive validator that rejected first)."""
        return self.validation is not None and self.validation.final


@dataclass(frozen=True)
class CaseJudge:
    """How test cases of one problem are judged."""

    pool: SandboxPool
    checker: OutputValidator
    limits: Limits  # the submission's limits
    interactive: bool = False
    passes: int = 1  # more than 1: multi-pass
    # the submission's jail, and the custom validator's, kept for its cases (see held.py)
    held: HeldJail | None = None
    held_validator: HeldValidator | None = None
    memo: ValidationMemo | None = None  # a custom validator's answers kept by content
    keep_feedback: bool = False  # the default validator's feedback files too (visualizer)
    # An interactive validator's rejection before the submission ends is the verdict, the
    # submission then stopped (problemtools, DOMjudge). False, bt run's: a rejection
    # first is final unless the submission had run past its time already.
    reject_first_final: bool = True
    # Output past the limit was dropped (Limits.truncate_output) and the run went on: an
    # output limit once it ends in time and well, before its output is judged (the order
    # of problemtools and DOMjudge: time, run error, output, answer); False: judged (bt's).
    truncated_is_ole: bool = False
    # The validator sees the submission's output end only when the submission ends
    # (problemtools' interactive.cc keeps its copy of that pipe open until then, as bt's
    # relay does); False: at once, when the submission closes it (DOMjudge's runpipe).
    hold_output_end: bool = True

    def judge(self, exe: Executable, input_path: Path, answer: Path, work: Path) -> CaseResult:
        """Judge ``exe`` on one case, using ``work`` (a fresh directory) for its files."""
        work.mkdir(parents=True, exist_ok=True)
        feedback = work / "feedback"  # (made for a validator program, or to be kept)
        if self.interactive or self.keep_feedback or isinstance(self.checker, CustomValidator):
            fresh_feedback_dir(feedback)
        stdin, cpu, run, validation = input_path, 0.0, None, None
        for number in range(1, self.passes + 1):
            try:
                # the validator reads this pass's input (nextpass.in from the previous
                # pass), as problemtools and BAPCtools give it
                run, validation = self._one_pass(exe, stdin, stdin, answer, work, feedback)
            except SandboxError as exc:
                return CaseResult(Verdict.JE, run, validation, cpu, f"sandbox: {exc}")
            cpu += run.cpu_seconds
            if (
                validation is None
                or validation.verdict is not Verdict.AC
                or validation.nextpass is None
            ):
                break
            if number == self.passes:
                return CaseResult(
                    Verdict.JE,
                    run,
                    validation,
                    cpu,
                    "output validator asked for "
                    f"pass {number + 1}, but validation_passes is {self.passes}",
                    None,
                    number,
                )
            stdin = work / f"pass{number + 1}.in"
            jailfiles.write_new(stdin, validation.nextpass)  # (a copy: no name moved)
            jailfiles.remove(feedback, NEXTPASS)  # (the rest stays: a validator's state)
        assert run is not None
        return self._verdict(exe, run, validation, cpu, number)

    def _verdict(
        self,
        exe: Executable,
        run: RunResult,
        validation: Validation | None,
        cpu: float,
        passes: int,
    ) -> CaseResult:
        if validation is not None and validation.verdict is Verdict.JE:
            return CaseResult(Verdict.JE, run, validation, cpu, validation.error, None, passes)
        if validation is None and self._truncated(run):
            why = f"wrote over {self.limits.output_bytes >> 20} MiB (the output limit)"
            return CaseResult(Verdict.OLE, run, None, cpu, why, None, passes)
        if validation is None:  # the submission failed before validation
            verdict = verdict_of_run(run.outcome)
            assert verdict is not None  # (no validation: the run ended badly)
            if verdict is Verdict.RTE and self._out_of_memory(exe, run):
                return CaseResult(Verdict.MLE, run, None, cpu, "ran out of memory", None, passes)
            said = run.error_line() if verdict is Verdict.RTE else ""
            why = f"{run.describe()}: {said}" if said else run.describe()
            return CaseResult(verdict, run, None, cpu, why, None, passes)
        message = validation.judgemessage.strip()
        return CaseResult(
            validation.verdict,
            run,
            validation,
            cpu,
            message,
            validation.score,
            passes,
            validation.multiplier,
        )

    def _truncated(self, run: RunResult) -> bool:
        """A run that ended well with output dropped past the limit (truncated_is_ole)."""
        over = run.output_bytes > self.limits.output_bytes and self.limits.truncate_output
        return self.truncated_is_ole and run.ok and over

    @staticmethod
    def _out_of_memory(exe: Executable, run: RunResult) -> bool:
        """A crash that reports running out of memory (the JVM's heap limit, bad_alloc)."""
        return exe.out_of_memory is not None and exe.out_of_memory.encode() in run.stderr

    def _one_pass(
        self,
        exe: Executable,
        stdin: Path,
        input_path: Path,
        answer: Path,
        work: Path,
        feedback: Path,
    ) -> tuple[RunResult, Validation | None]:
        if self.interactive:
            assert isinstance(self.checker, CustomValidator)
            return self._interactive(exe, stdin, input_path, answer, feedback)
        output = work / "team.out"
        limits, memory_mb = run_limits(self.limits, exe), self.limits.memory_bytes >> 20
        if self.held is not None:
            run = self.held.run(limits=limits, memory_mb=memory_mb, stdin=stdin, stdout=output)
        else:
            with self.pool.sandbox() as box:
                run = run_program(
                    box,
                    exe,
                    limits=limits,
                    memory_mb=memory_mb,
                    stdin=stdin,
                    stdout=output,
                    cwd=exe.cwd,
                )
        if not run.ok or self._truncated(run):
            return run, None
        if isinstance(self.checker, CustomValidator):
            return run, self._custom(self.checker, input_path, answer, output, feedback)
        return run, self.checker.validate(output, answer, feedback if self.keep_feedback else None)

    def _custom(
        self, checker: CustomValidator, input_path: Path, answer: Path, output: Path, feedback: Path
    ) -> Validation:
        """A custom validator's answer: known already (see ValidationMemo), or its run, in
        its held jail when the files are in its view."""
        memo = self.memo
        key = memo.key(checker, input_path, answer, output) if memo is not None else ""
        found = memo.known(key) if memo is not None else None
        if found is not None:
            return found
        held = self.held_validator
        inside = held.inside(input_path, answer, feedback) if held is not None else None
        if held is not None and inside is not None:
            result = checker.validate_held(held.jail, inside, output, feedback)
        else:
            with self.pool.sandbox() as box:
                result = checker.validate_with(box, input_path, answer, output, feedback)
        if memo is not None:
            memo.remember(key, result)
        return result

    def _interactive(
        self, exe: Executable, stdin: Path, input_path: Path, answer: Path, feedback: Path
    ) -> tuple[RunResult, Validation | None]:
        """Submission and validator wired stdout-to-stdin both ways."""
        checker = self.checker
        assert isinstance(checker, CustomValidator)
        del stdin  # the submission never sees the input; the validator gets it by path
        sub, val = self._run_pair(exe, checker, input_path, answer, feedback)
        sub = with_peers_wait(sub, val, shared=cores.current() is not None)
        validation = checker.interpret(val, feedback)
        return sub, interactive_verdict(sub, val, validation, self.reject_first_final)

    def _run_pair(
        self,
        exe: Executable,
        checker: CustomValidator,
        input_path: Path,
        answer: Path,
        feedback: Path,
    ) -> tuple[RunResult, RunResult]:
        to_val_r, to_val_w = os.pipe()
        to_sub_r, to_sub_w = os.pipe()
        # (see hold_output_end)
        held_end = os.dup(to_val_w) if self.hold_output_end else None
        # The validator's jail watches both pipes to tell which side closed its output first.
        watch = (os.dup(to_sub_r), os.dup(to_val_r))
        # Output the submission writes after the validator left is read and dropped (as
        # problemtools keeps that pipe open): it is not a crash by SIGPIPE.
        spare = os.dup(to_val_r)
        drain = threading.Thread(target=_drain, args=(spare,), daemon=True)
        done: dict[str, RunResult | SandboxError] = {}
        with self.pool.sandbox() as sub_box, self.pool.sandbox() as val_box:

            def run_sub() -> None:
                done["sub"] = _guard(
                    lambda: run_program(
                        sub_box,
                        exe,
                        limits=self.limits,
                        stdin=to_sub_r,
                        stdout=to_val_w,
                        stdout_direct=True,
                        give_fds=True,
                        cwd=exe.cwd,
                    )
                )
                if held_end is not None:
                    os.close(held_end)

            def run_val() -> None:
                done["val"] = _guard(
                    lambda: run_program(
                        val_box,
                        checker.executable,
                        checker.arguments(),
                        limits=checker.limits,
                        stdin=to_val_r,
                        stdout=to_sub_w,
                        stdout_direct=True,
                        give_fds=True,
                        binds=checker.judge_binds(input_path, answer, feedback),
                        watch=watch,
                    )
                )

            core = cores.current()  # (both on the core this thread leased, if it did)
            sub_thread = threading.Thread(target=_lending(core, run_sub))
            val_thread = threading.Thread(target=_lending(core, run_val))
            sub_thread.start()
            val_thread.start()
            val_thread.join()
            drain.start()
            val_done = done["val"]
            rejected = isinstance(val_done, RunResult) and val_done.exit_code == WRONG_ANSWER
            sub_thread.join(INTERACTIVE_GRACE if rejected else None)
            if sub_thread.is_alive():
                sub_box.kill()
                sub_thread.join()
        drain.join(INTERACTIVE_GRACE)  # (at the submission's end its pipe is closed)
        sub, val = done["sub"], done["val"]
        if isinstance(sub, SandboxError):
            raise sub
        if isinstance(val, SandboxError):
            raise val
        return sub, val


def with_peers_wait(sub: RunResult, val: RunResult, shared: bool = False) -> RunResult:
    """An interactive submission's run, its wait for a CPU unknown (so starved, when the
    wall clock stopped it: see RunResult.starved) when its validator was kept waiting for
    one: it may have slept only because the validator the machine starved was slow. On
    one ``shared`` core (their grader's lease) each waited while the other ran: that
    much of a wait is the pair's own doing (a submission that floods its validator keeps
    it busy), the rest the machine's."""
    if shared:
        sub, val = _less_wait(sub, val.cpu_seconds), _less_wait(val, sub.cpu_seconds)
    return replace(sub, queued_seconds=None) if sub.wall_killed and val.crowded else sub


def _less_wait(run: RunResult, peers: float) -> RunResult:
    if run.queued_seconds is None:
        return run
    return replace(run, queued_seconds=max(0.0, run.queued_seconds - peers))


def run_limits(limits: Limits, exe: Executable) -> Limits:
    """A submission's limits as its runs get them: the memory limit plus what its language
    needs beside the program (the JVM's)."""
    return replace(limits, memory_bytes=limits.memory_bytes + (exe.extra_memory_mb << 20))


def interactive_verdict(
    sub: RunResult, val: RunResult, validation: Validation, reject_first_final: bool = True
) -> Validation | None:
    """problemtools' order: validator failure (JE), validator rejected first (WA), TLE, RTE,
    then the validator's verdict; without ``reject_first_final`` (bt run's order) a
    rejection first is final unless the submission had run past its time by then (it is
    stopped at the rejection either way). None: the submission's own failure decides."""
    if val.first_closed is not None:  # which closed its output first: causal, exact
        validator_first = val.first_closed == "own"
    else:  # without jails: exit times
        validator_first = val.ended_at <= sub.ended_at
    if validation.verdict is Verdict.JE and val.outcome is Outcome.MLE:
        # what the submission controls is charged to it: a validator it flooded until it
        # ran out of memory (one unbounded readline) rejects it, never the judge
        return Validation(Verdict.WA, FLOODED, validation.teammessage, final=True)
    if validation.verdict is Verdict.JE:
        return validation
    over_time = sub.outcome is Outcome.TLE and not reject_first_final  # (bt: TLE first)
    if validation.verdict is Verdict.WA and validator_first and not over_time:
        return replace(validation, final=True)
    if sub.outcome in (Outcome.TLE, Outcome.MLE) or (
        sub.outcome is Outcome.RTE and not sub.judge_killed
    ):
        return None
    return validation


def _drain(fd: int) -> None:
    """Read ``fd`` to its end, dropping what comes, then close it."""
    try:
        while os.read(fd, 1 << 16):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)


def _guard(call: Callable[[], RunResult]) -> RunResult | SandboxError:
    try:
        return call()
    except SandboxError as exc:
        return exc


def _lending(core: int | None, call: Callable[[], None]) -> Callable[[], None]:
    """``call`` in another thread, its runs on the core this one leased (see cores.lent)."""

    def lent() -> None:
        with cores.lent(core):
            call()

    return lent
