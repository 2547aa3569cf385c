"""Output validation of the test data itself: every .ans must be accepted as the output
of its own test; junk must not be; crash probes must never make the validator fail; and
2023-07 data/invalid_output and data/valid_output."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Collection, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from problemtools_py.digests import data_digest, digest
from problemtools_py.findings import Finding, error, warning
from problemtools_py.judge.held import HeldValidator, Lent, worth_fresh_init
from problemtools_py.judge.validators import (
    CustomValidator,
    DefaultValidator,
    Validation,
    fresh_feedback_dir,
)
from problemtools_py.judging.session import Session
from problemtools_py.model.problem import Problem, TestCase
from problemtools_py.model.testdata import ALL_KINDS, OUTPUT_KINDS, GroupKind, is_sample
from problemtools_py.rulesets import Ruleset
from problemtools_py.sandbox.results import SandboxError
from problemtools_py.scratch import readable_files, scratch_dir, scratch_root
from problemtools_py.verdicts import Verdict

PROBES: tuple[tuple[str, bytes], ...] = (
    ("an empty output", b""),
    ("-1", b"-1\n"),
    ("2147483648", b"2147483648\n"),
    ("-9223372036854775809", b"-9223372036854775809\n"),
    ("NaN", b"NaN\n"),
    ("inf", b"inf\n"),
    ("1e308", b"1e308\n"),
    ("a NUL byte", b"\0\n"),
    ("non-UTF-8 bytes", b"\xff\xfe\n"),
    ("a 100 KB line", b"9" * 100_000 + b"\n"),
    ("many lines", b"1\n" * 20_000),
)
JUNK: tuple[tuple[str, bytes], ...] = (
    ("an empty output", b""),
    ("random text", b"the quick brown fox\n"),
    ("a wrong number", b"-123456789\n"),
)


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


def _cases(ctx: Session, kinds: Collection[GroupKind] = ALL_KINDS) -> list[TestCase]:
    """The test cases of ``kinds`` with an input and an answer."""
    return ctx.cases(kinds, (".in", ".ans"))


def _shown_outputs(ctx: Session, cases: list[TestCase]) -> Iterator[tuple[TestCase, str]]:
    """The files the output validator must accept as outputs. Drafts and legacy: every
    .ans (a secret one that fails is a warning). 2025-09: the .ans files shown in the
    statement (samples not overridden by .out, .ans.statement, .ans.download or
    .interaction) and the .out files; a secret answer may be anything the validator
    reads, not an output."""
    for case in cases:
        if not ctx.problem.released:
            yield case, ".ans"
        elif is_sample(case.name):
            if ".out" in case.files:
                yield case, ".out"
            elif case.answer_shown:
                yield case, ".ans"


def check_answers(ctx: Session) -> list[Finding]:
    with AnswerChecker(ctx, sum(1 for _ in _cases(ctx)) + len(PROBES + JUNK)) as checker:
        return _check_answers(ctx, checker)


def _check_answers(ctx: Session, checker: AnswerChecker) -> list[Finding]:
    config = ctx.problem.config
    where = "output_validators" if ctx.problem.legacy else "output_validator"
    if checker.error:
        return [error("output-validator", checker.error, where)]
    if config.interactive or config.multi_pass:
        return []  # their .ans files are not outputs
    findings: list[Finding] = []
    cases = _cases(ctx, {GroupKind.JUDGED, GroupKind.OTHER})  # (answers that are outputs)
    shown = list(_shown_outputs(ctx, cases))
    results = ctx.map(lambda s: checker.check(s[0], ctx.problem.root / s[0].files[s[1]]), shown)
    for (case, ext), result in zip(shown, results, strict=True):
        if result.verdict is Verdict.AC:
            continue
        why = result.error or result.judgemessage.strip() or result.verdict.value
        sample = is_sample(case.name)
        make = error if sample or result.verdict is Verdict.JE else warning
        what = "answer" if ext == ".ans" else "sample output"
        findings.append(
            make(
                "answer",
                f"the output validator does not accept this {what} as "
                f"the output of its own test: {why[:300]}",
                case.files[ext],
            )
        )
    if cases:
        findings.extend(_probes(ctx, checker, cases[0], where))
    findings.extend(_validation_dirs(ctx, checker))
    return findings


def _probes(ctx: Session, checker: AnswerChecker, case: TestCase, where: str) -> Iterator[Finding]:
    answer = (ctx.problem.root / case.files[".ans"]).read_bytes()
    probes = PROBES + JUNK
    with tempfile.TemporaryDirectory(prefix="ptpy-probe-", dir=scratch_root()) as tmp:
        paths = readable_files(tmp, [data for _, data in probes], "probe")
        results = ctx.map(lambda path: checker.check(case, path), paths)
    for (what, data), result in zip(probes, results, strict=True):
        if result.verdict is Verdict.JE:
            yield error(
                "output-validator",
                f"the output validator fails on {what} as output "
                f"for {case.name}: {result.error[:300]}",
                where,
            )
        elif (
            (what, data) in JUNK
            and data.split() != answer.split()
            and result.verdict is Verdict.AC
            and checker.custom is not None
        ):
            yield warning(
                "output-validator",
                f"the output validator accepts {what} as output for {case.name}",
                where,
            )


def _validation_dirs(ctx: Session, checker: AnswerChecker) -> Iterator[Finding]:
    root = ctx.problem.root
    cases = _cases(ctx, OUTPUT_KINDS)
    files = [(c, ".ans") for c in cases] + [(c, ".out") for c in cases if ".out" in c.files]
    verdicts = dict(
        zip(
            [(c.name, ext) for c, ext in files],
            ctx.map(lambda f: checker.check(f[0], root / f[0].files[f[1]]).verdict, files),
            strict=True,
        )
    )
    for case in cases:
        top = case.name.split("/")[0]
        if verdicts[case.name, ".ans"] is not Verdict.AC:
            yield error(
                "answer",
                f"the .ans of this {top} case must pass the output validator",
                case.files[".ans"],
            )
        out = case.files.get(".out")
        if out is None:
            yield error("data", f"a {top} case needs an .out file", case.files[".in"])
            continue
        verdict = verdicts[case.name, ".out"]
        if top == "invalid_output" and verdict is Verdict.AC:
            yield error("output-validator", "the output validator accepts this invalid output", out)
        elif top == "valid_output" and verdict is not Verdict.AC:
            yield error("output-validator", "the output validator rejects this valid output", out)
