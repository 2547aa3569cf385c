"""The package's answers checked by its output validator (verifyproblem's ``validators``
part): every .ans (2025-09: every answer shown) accepted as the output of its own test,
junk not, crash probes never making the validator fail, and 2023-07 data/invalid_output
rejected and data/valid_output accepted. The checker itself is judging's."""

from __future__ import annotations

import tempfile
from collections.abc import Collection, Iterator

from problemtools_py.findings import Finding, error, warning
from problemtools_py.judging.answers import AnswerChecker
from problemtools_py.judging.session import Session
from problemtools_py.model.conventions import extension
from problemtools_py.model.problem import TestCase
from problemtools_py.model.testdata import ALL_KINDS, OUTPUT_KINDS, GroupKind, is_sample
from problemtools_py.rulesets import Ruleset
from problemtools_py.scratch import readable_files, scratch_root
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
        if result.verdict is Verdict.JE:  # (bt run tries no such output: it accepts this)
            yield extension(
                Ruleset.BAPCTOOLS,
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
