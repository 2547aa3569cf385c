"""A run's transcript (a sample's ``.interaction``, ``runsubmission --interaction``): the
program judged on one test case as CaseJudge judges it, with what passed between it and
the judge written down, in BAPCtools' form (``bt generate`` writes the same):

- interactive: the two are connected through a relay here that forwards each side's
  output to the other and logs it line by line, ``<`` before what the judge said and
  ``>`` before what the program said, in the order the lines were complete (a last line
  without a newline logged when its side ends); the judge's end of output reaches the
  program at once, the program's reaches the judge when it ends;
- multi-pass, not interactive: each pass's input lines after ``<``, then its output's
  lines after ``>``;
- multi-pass: a line ``---`` between passes.

Both run in the sandbox under the judge's limits; only the pipes pass through here."""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from problemtools_py import jailfiles
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.judge.judging import interactive_verdict, run_limits
from problemtools_py.judge.validators import (
    NEXTPASS,
    CustomValidator,
    Validation,
    fresh_feedback_dir,
)
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.results import Limits, RunResult, SandboxError
from problemtools_py.verdicts import Verdict, verdict_of_run

CHUNK = 1 << 16


@dataclass(frozen=True)
class Transcript:
    """A run on one case, its verdict and what passed between the program and the judge."""

    verdict: Verdict
    message: str
    text: str  # the .interaction file's content
    passes: int


class _Log:
    """Lines of both sides, in the order they were complete."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._partial = {"<": "", ">": ""}
        self._lock = threading.Lock()

    def add(self, side: str, data: bytes) -> None:
        with self._lock:
            parts = (self._partial[side] + data.decode("utf-8", "replace")).split("\n")
            self._partial[side] = parts.pop()
            self.lines += [side + line for line in parts]

    def end(self, side: str) -> None:
        with self._lock:
            if self._partial[side]:
                self.lines.append(side + self._partial[side])
            self._partial[side] = ""


def _relay(source: int, sink: int, side: str, log: _Log) -> None:
    """Forward ``source`` to ``sink`` (logged), then close both."""
    try:
        while data := os.read(source, CHUNK):
            log.add(side, data)
            with contextlib.suppress(OSError):  # (the reader left: logged, dropped)
                os.write(sink, data)
    except OSError:
        pass
    finally:
        log.end(side)
        os.close(source)
        os.close(sink)


def run_transcript(
    pool: SandboxPool,
    exe: Executable,
    limits: Limits,
    checker: CustomValidator,
    case: tuple[Path, Path],
    work: Path,
    interactive: bool,
    passes: int,
) -> Transcript:
    """``exe`` on the case (input, answer) with its transcript; ``work`` a new directory."""
    input_path, answer = case
    work.mkdir(parents=True, exist_ok=True)
    stdin, number = input_path, 0
    chunks: list[list[str]] = []
    verdict, message = Verdict.JE, ""
    # one feedback directory for every pass, as the judge keeps it (a validator's state:
    # BAPCtools' validate.h counts its passes in feedback/.pass)
    feedback = fresh_feedback_dir(work / "feedback")
    for number in range(1, passes + 1):
        log = _Log()
        try:
            if interactive:
                validation = _interactive(
                    pool, exe, limits, checker, (stdin, answer), feedback, log
                )
            else:
                validation = _one_pass(
                    pool, exe, limits, checker, (stdin, answer), (work, feedback), log
                )
        except SandboxError as exc:
            return Transcript(Verdict.JE, f"sandbox: {exc}", _text(chunks), number)
        chunks.append(log.lines)
        verdict, message = validation.verdict, validation.judgemessage.strip() or validation.error
        if verdict is not Verdict.AC or validation.nextpass is None or number == passes:
            break
        stdin = work / f"pass{number + 1}.in"
        jailfiles.write_new(stdin, validation.nextpass)  # (a copy: no name moved)
        jailfiles.remove(feedback, NEXTPASS)  # (the rest stays)
    return Transcript(verdict, message, _text(chunks), number)


def _text(passes: list[list[str]]) -> str:
    return "".join(f"{line}\n" for lines in _joined(passes) for line in lines)


def _joined(passes: list[list[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    for index, lines in enumerate(passes):
        found.append((["---"] if index else []) + lines)
    return found


def _one_pass(
    pool: SandboxPool,
    exe: Executable,
    limits: Limits,
    checker: CustomValidator,
    case: tuple[Path, Path],
    dirs: tuple[Path, Path],
    log: _Log,
) -> Validation:
    """A pass of a multi-pass problem that is not interactive: input, then output
    (``dirs``: the work directory and the feedback directory every pass shares)."""
    given, answer = case
    work, feedback = dirs
    output = work / "team.out"
    with pool.sandbox() as box:
        run = run_program(box, exe, limits=run_limits(limits, exe), stdin=given, stdout=output)
    log.add("<", given.read_bytes().removesuffix(b"\n") + b"\n")
    log.add(">", output.read_bytes().removesuffix(b"\n") + b"\n")
    if not run.ok:
        return _failed(run)
    with pool.sandbox() as box:
        return checker.validate_with(box, given, answer, output, feedback)


def _failed(run: RunResult) -> Validation:
    verdict = verdict_of_run(run.outcome) or Verdict.RTE
    return Validation(verdict, judgemessage=run.describe())


def _interactive(
    pool: SandboxPool,
    exe: Executable,
    limits: Limits,
    checker: CustomValidator,
    case: tuple[Path, Path],
    feedback: Path,
    log: _Log,
) -> Validation:
    """The program and the validator, each in a sandbox, talking through the relay."""
    given, answer = case
    sub_in_r, sub_in_w = os.pipe()  # judge -> program
    sub_out_r, sub_out_w = os.pipe()  # program -> judge
    val_in_r, val_in_w = os.pipe()
    val_out_r, val_out_w = os.pipe()
    relays = [
        threading.Thread(target=_relay, args=(val_out_r, sub_in_w, "<", log), daemon=True),
        threading.Thread(target=_relay, args=(sub_out_r, val_in_w, ">", log), daemon=True),
    ]
    for relay in relays:
        relay.start()
    done: dict[str, RunResult | SandboxError] = {}
    with pool.sandbox() as sub_box, pool.sandbox() as val_box:

        def sub() -> None:
            try:
                done["sub"] = run_program(
                    sub_box,
                    exe,
                    limits=run_limits(limits, exe),
                    stdin=sub_in_r,
                    stdout=sub_out_w,
                    stdout_direct=True,
                    give_fds=True,
                )
            except SandboxError as exc:
                done["sub"] = exc

        binds = checker.judge_binds(given, answer, feedback)

        def val() -> None:
            try:
                done["val"] = run_program(
                    val_box,
                    checker.executable,
                    checker.arguments(),
                    limits=checker.limits,
                    stdin=val_in_r,
                    stdout=val_out_w,
                    stdout_direct=True,
                    give_fds=True,
                    binds=binds,
                )
            except SandboxError as exc:
                done["val"] = exc

        threads = [threading.Thread(target=sub), threading.Thread(target=val)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    for relay in relays:
        relay.join()
    sub_run, val_run = done["sub"], done["val"]
    for found in (sub_run, val_run):
        if isinstance(found, SandboxError):
            raise found
    assert isinstance(sub_run, RunResult) and isinstance(val_run, RunResult)
    validation = checker.interpret(val_run, feedback)
    decided = interactive_verdict(sub_run, val_run, validation)
    return decided if decided is not None else _failed(sub_run)
