"""An output judged: :class:`AnswerChecker` runs the problem's output validator (its own,
in a jail kept per thread, or the default one) on a program's output for a test case,
and keeps what it said by the contents it judged. Every product that judges a program's
output asks it; verify.outputs checks the package's own answers with it."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from problemtools_py.digests import data_digest, digest
from problemtools_py.judge.held import HeldValidator, Lent, worth_fresh_init
from problemtools_py.judge.validators import (
    CustomValidator,
    DefaultValidator,
    Validation,
    fresh_feedback_dir,
)
from problemtools_py.judging.session import Session
from problemtools_py.model.problem import Problem, TestCase
from problemtools_py.rulesets import Ruleset
from problemtools_py.sandbox.results import SandboxError
from problemtools_py.scratch import scratch_dir
from problemtools_py.verdicts import Verdict


def unasked_scores(problem: Problem) -> bool:
    """Whether a legacy scoring problem's custom validator may write score.txt without
    ``validation: custom score``: the text makes it a judge error, DOMjudge reads it, and
    the package evidently means it (named as DOMjudge's extension, see verify/submissions.py)."""
    config = problem.config
    return (
        problem.legacy
        and config.scoring
        and config.custom_validation
        and not config.validator_score
    )


class AnswerChecker:
    """Validates outputs for the problem's test cases (default or custom validator). Used
    as a context manager, a custom validator runs in a jail kept per thread (see
    judge/held.py), closed at the end."""

    def __init__(self, ctx: Session, runs: int = 0) -> None:
        self.ctx = ctx
        self.fresh = worth_fresh_init(runs / max(1, ctx.policy.jobs))  # (runs: how many checks)
        self.cache = ctx.verdict_cache()
        self.custom: CustomValidator | None = None
        self.error: str | None = None
        self._work: Path | None = None  # (as a context manager) the held jails' feedback
        self._held: Lent[HeldValidator] = Lent()
        problem = ctx.problem
        self.unasked_scores = unasked_scores(problem)  # (a key part of every validation)
        program = problem.output_validator
        if program is not None:
            build = ctx.build(program)
            if build.executable is None:
                self.error = f"output validator does not build: {build.message[:2000]}"
                return
            scores = problem.config.validator_score if problem.legacy else problem.config.scoring
            # DOMjudge takes score.txt on every scoring problem, with a wrong answer too
            domjudge = ctx.policy.ruleset is Ruleset.DOMJUDGE and problem.config.scoring
            self.custom = CustomValidator(
                build.executable,
                ctx.validation_limits,
                (),
                scores or self.unasked_scores or domjudge,
                require_score=problem.legacy and scores,
                score_with_wrong_answer=domjudge,
            )

    def for_case(self, case: TestCase) -> DefaultValidator | CustomValidator:
        return self.with_args(self.ctx.problem.output_validator_args(case))

    def with_args(self, args: Sequence[str]) -> DefaultValidator | CustomValidator:
        """The problem's output validator (custom, else the default one) with ``args``:
        a case's, or, for an input that is no case of the package, the caller's choice."""
        if self.custom is not None:
            return replace(self.custom, args=tuple(args))
        return DefaultValidator(args)

    def check(self, case: TestCase, output: Path, answer: Path | None = None) -> Validation:
        root = self.ctx.problem.root
        answer = answer or root / case.files[".ans"]
        validator = self.for_case(case)
        if isinstance(validator, DefaultValidator):
            return validator.validate(output, answer, None)
        given = root / case.files[".in"]
        key = self.key(validator, given, answer, output)
        found = self.known(key)
        if found is not None:
            return found
        with tempfile.TemporaryDirectory(prefix="ptpy-check-", dir=self._work) as tmp:
            os.chmod(tmp, 0o711)  # (a held validator finds its feedback directory in it)
            feedback = fresh_feedback_dir(Path(tmp) / "feedback")
            try:
                result = self._run(validator, given, answer, output, feedback)
            except SandboxError as exc:
                return Validation(Verdict.JE, error=str(exc))
        self.remember(key, result)
        return result

    # (judge.judging.ValidationMemo: the case judge asks here before it runs a validator)
    def key(self, validator: CustomValidator, given: Path, answer: Path, output: Path) -> str:
        """What the validator's answer for these files is kept under."""
        root = self.ctx.problem.root
        return digest(
            "answer-v3",  # v3: Python validators live as under python3 (exit(), threads)
            validator.executable.directory.name,
            *validator.args,
            *(["score with WA"] if validator.score_with_wrong_answer else []),
            *(["unasked scores"] if self.unasked_scores else []),
            data_digest(given, root),
            data_digest(answer, root),
            data_digest(output, root),
        )

    def known(self, key: str) -> Validation | None:
        """The validator's answer kept under ``key`` by an earlier run (of this
        verification or another)."""
        cached = self.cache.get(key)
        if cached is None:
            return None
        return Validation(
            Verdict(cached["verdict"]),
            cached["judgemessage"],
            cached["teammessage"],
            cached["score"],
            multiplier=cached["multiplier"],
        )

    def remember(self, key: str, result: Validation) -> None:
        """Keep an accept or a reject (a judge error may be the machine's, and a next
        pass's input is a file of this run)."""
        if result.verdict is Verdict.JE or result.nextpass is not None:
            return
        record = {
            "verdict": result.verdict.value,
            "judgemessage": result.judgemessage,
            "teammessage": result.teammessage,
            "score": result.score,
            "multiplier": result.multiplier,
        }
        self.cache.put(key, record)

    def _run(
        self, validator: CustomValidator, given: Path, answer: Path, output: Path, feedback: Path
    ) -> Validation:
        if self._work is not None:
            work, data = self._work, self.ctx.problem.root / "data"
            exe, limits = validator.executable, validator.limits
            with self._held.take(
                "", lambda: HeldValidator(self.ctx.pool, exe, limits, data, work, self.fresh)
            ) as held:
                inside = held.inside(given, answer, feedback)
                if inside is not None:
                    return validator.validate_held(held.jail, inside, output, feedback)
        with self.ctx.pool.sandbox() as box:
            return validator.validate_with(box, given, answer, output, feedback)

    def __enter__(self) -> AnswerChecker:
        room = self.ctx.scratch_room(self.ctx.problem.config.limits.validation_output_mib)
        self._work = scratch_dir("ptpy-answers-", room)
        self._work.chmod(0o711)
        return self

    def __exit__(self, *exc: object) -> None:
        for held in self._held.items():
            held.jail.close()
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = None
