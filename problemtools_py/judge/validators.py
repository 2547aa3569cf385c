"""Output validators: the default one (in-process), the dataset comparator, and custom
programs called as ``validator input answer feedback_dir/ [args] < team_output``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from problemtools_py import jailfiles
from problemtools_py.judge import python2
from problemtools_py.judge.comparators import (
    DefaultFlags,
    FlagError,
    dataset_compare,
    default_compare,
)
from problemtools_py.judge.compile import Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.judge.held import HeldJail
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits, Outcome, RunResult, SandboxError
from problemtools_py.verdicts import Verdict

FEEDBACK_CAP = 64 << 10
NEXTPASS = "nextpass.in"  # multi-pass: the next pass's input, in the feedback directory
ACCEPTED, WRONG_ANSWER = 42, 43  # an output validator's exit codes
_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*\Z")


@dataclass(frozen=True)
class Validation:
    """What an output validator said about one output."""

    verdict: Verdict  # AC, WA or JE
    judgemessage: str = ""
    teammessage: str = ""
    score: float | None = None
    nextpass: bytes | None = None  # multi-pass: the next pass's input (copied out)
    multiplier: float | None = None  # 2023-07 and later: score_multiplier.txt
    error: str = ""  # why it is JE
    # interactive: the validator rejected before the submission was done, so the verdict
    # stands even if the submission then runs out of time (as in problemtools)
    final: bool = False


def read_feedback(feedback_dir: Path, name: str, cap: int = FEEDBACK_CAP) -> str | None:
    """A feedback file the validator (a program we do not trust) wrote: never through a
    link, never more than ``cap`` bytes (see jailfiles)."""
    return jailfiles.read_text(feedback_dir, name, cap)


def fresh_feedback_dir(path: Path) -> Path:
    jailfiles.remove_tree(path)
    path.mkdir(parents=True)
    path.chmod(0o777)  # (for whichever sandbox's user the validator runs as)
    return path


def parse_score(text: str | None) -> float | None:
    if text is None or not _NUMBER.match(text):
        return None
    return float(text)


class DefaultValidator:
    """The format's default output validator, with its flags."""

    def __init__(self, args: Sequence[str]) -> None:
        self.args = list(args)

    def validate(self, team_output: Path, answer: Path, feedback_dir: Path | None) -> Validation:
        """``feedback_dir``: where to write judgemessage.txt and diffposition.txt too
        (for a visualizer; the message is the Validation's)."""
        try:
            flags = DefaultFlags.parse(self.args)
        except FlagError as exc:
            return Validation(Verdict.JE, error=f"default output validator: {exc}")
        result = default_compare(team_output.read_bytes(), answer.read_bytes(), flags)
        if result.accepted:
            return Validation(Verdict.AC)
        if feedback_dir is not None:
            jailfiles.write_new(feedback_dir / "judgemessage.txt", f"{result.message}\n".encode())
            where = f"{result.judge_position} {result.team_position}\n"
            jailfiles.write_new(feedback_dir / "diffposition.txt", where.encode())
        return Validation(Verdict.WA, judgemessage=result.message)


class DatasetValidator:
    """The competitive-code-curated dataset's comparator."""

    def validate(self, team_output: Path, answer: Path, feedback_dir: Path | None) -> Validation:
        result = dataset_compare(
            team_output.read_bytes().decode("utf-8", "replace"),
            answer.read_bytes().decode("utf-8", "replace"),
        )
        return Validation(Verdict.AC) if result.accepted else Validation(Verdict.WA, result.message)


@dataclass(frozen=True)
class CustomValidator:
    """A validator program, run in the sandbox under the validation limits."""

    executable: Executable
    limits: Limits
    args: tuple[str, ...] = ()
    scoring: bool = False  # score.txt is allowed
    require_score: bool = False  # legacy "custom score": an accepted output needs score.txt
    score_with_wrong_answer: bool = False  # DOMjudge's reading: score.txt beside WA counts
    kind: str = "output validator"  # what its messages call it

    def arguments(
        self, files: Sequence[str] = ("/judge/input", "/judge/answer", "/judge/feedback")
    ) -> list[str]:
        """Its command line: the input, the answer and the feedback directory (as the
        jail sees them: bound per run by judge_binds, else where a held jail has them),
        then the problem's validator arguments."""
        given, answer, feedback = files
        return [given, answer, f"{feedback}/", *self.args]

    @staticmethod
    def judge_binds(input_path: Path, answer: Path, feedback_dir: Path) -> list[Bind]:
        return [
            Bind(str(input_path), "/judge/input"),
            Bind(str(answer), "/judge/answer"),
            Bind(str(feedback_dir), "/judge/feedback", True),
        ]

    def validate_with(
        self, box: Sandbox, input_path: Path, answer: Path, team_output: Path, feedback_dir: Path
    ) -> Validation:
        try:
            run = run_program(
                box,
                self.executable,
                self.arguments(),
                limits=self.limits,
                stdin=team_output,
                binds=self.judge_binds(input_path, answer, feedback_dir),
            )
        except SandboxError as exc:
            return Validation(Verdict.JE, error=f"{self.kind} could not run: {exc}")
        return self.interpret(run, feedback_dir)

    def validate_held(
        self, jail: HeldJail, inside: Sequence[str], team_output: Path, feedback_dir: Path
    ) -> Validation:
        """One run in a jail kept for the validator (see judge/held.py), which sees the
        input, answer and feedback directory at the paths ``inside``."""
        try:
            run = jail.run(self.arguments(inside), limits=self.limits, stdin=team_output)
        except SandboxError as exc:
            return Validation(Verdict.JE, error=f"{self.kind} could not run: {exc}")
        return self.interpret(run, feedback_dir)

    def interpret(self, run: RunResult, feedback_dir: Path) -> Validation:
        """The validator's verdict from its exit code and feedback files."""
        judgemessage = read_feedback(feedback_dir, "judgemessage.txt") or ""
        teammessage = read_feedback(feedback_dir, "teammessage.txt") or ""
        code = run.exit_code if run.outcome in (Outcome.OK, Outcome.RTE) else None
        if code not in (ACCEPTED, WRONG_ANSWER):
            why = run.describe() if run.outcome is not Outcome.OK else "exit code 0"
            detail = run.stderr.decode("utf-8", "replace").strip()[-500:]
            error = f"{self.kind} failed ({why}; 42 means accepted, 43 wrong answer)"
            return Validation(
                Verdict.JE,
                judgemessage,
                teammessage,
                error=python2.named_for(
                    self.executable.language, error + (f": {detail}" if detail else "")
                ),
            )
        verdict = Verdict.AC if code == ACCEPTED else Verdict.WA
        raw_score = read_feedback(feedback_dir, "score.txt")
        score = parse_score(raw_score)
        raw_multiplier = read_feedback(feedback_dir, "score_multiplier.txt")
        multiplier = parse_score(raw_multiplier)
        has_next = jailfiles.present(feedback_dir, NEXTPASS)
        problem = self._feedback_problem(verdict, raw_score, score, has_next) or (
            self._multiplier_problem(verdict, raw_multiplier, multiplier)
        )
        nextpass = (
            jailfiles.read(feedback_dir, NEXTPASS, self.limits.file_bytes) if has_next else None
        )
        if has_next and nextpass is None and not problem:
            problem = (
                f"{self.kind} left a {NEXTPASS} that is not a regular file of at most "
                f"{self.limits.file_bytes} bytes (a link, a FIFO, a directory?)"
            )
        if problem:
            return Validation(Verdict.JE, judgemessage, teammessage, error=problem)
        return Validation(
            verdict, judgemessage, teammessage, score, nextpass, multiplier=multiplier
        )

    def _multiplier_problem(
        self, verdict: Verdict, raw: str | None, multiplier: float | None
    ) -> str | None:
        """score_multiplier.txt that makes the validator's answer a judge error, or None."""
        if raw is None:
            return None
        if verdict is Verdict.WA:
            return f"{self.kind} wrote score_multiplier.txt with a wrong answer"
        if not self.scoring or self.require_score:
            return f"{self.kind} wrote score_multiplier.txt, but this problem does not use it"
        if multiplier is None or not 0.0 <= multiplier <= 1.0:
            return f"score_multiplier.txt must hold a number in [0, 1], not {raw[:40]!r}"
        return None

    def _feedback_problem(
        self, verdict: Verdict, raw_score: str | None, score: float | None, has_next: bool
    ) -> str | None:
        """Feedback that makes the validator's answer a judge error, or None."""
        if raw_score is not None:
            if verdict is Verdict.WA and not self.score_with_wrong_answer:
                return f"{self.kind} wrote score.txt with a wrong answer"
            if not self.scoring:
                return (
                    f"{self.kind} wrote score.txt, but this problem does not use validator scores"
                    " (DOMjudge reads it: --judge domjudge)"
                )
            if score is None:
                return f"{self.kind} wrote a score.txt that is not a number: {raw_score[:40]!r}"
        elif self.require_score and verdict is Verdict.AC:
            return f"{self.kind} accepted without writing score.txt"
        if has_next and verdict is not Verdict.AC:
            return f"{self.kind} wrote nextpass.in with a wrong-answer verdict"
        return None
