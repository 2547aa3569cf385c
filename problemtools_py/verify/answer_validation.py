"""Answer validators (BAPCtools' ``answer_validators/``): every ``.ans`` of the test data
is given on standard input, with the test case's input as the first argument and its
``answer_validator_args`` after it, and must be accepted (exit 42) by each of them; one
of ``data/invalid_answer/`` must be rejected by one of them, as bt checks it."""

from __future__ import annotations

from problemtools_py.findings import Finding, error
from problemtools_py.judge.compile import Executable
from problemtools_py.judging.validators import JUDGE_INPUT, run_validator, validators
from problemtools_py.model.conventions import answer_validator_args
from problemtools_py.model.problem import Program, TestCase
from problemtools_py.model.testdata import ALL_KINDS, GroupKind
from problemtools_py.verify.context import Context


def _cases(ctx: Context) -> list[TestCase]:
    """Every test case with an input and an answer, but data/invalid_input's (whose
    answers need not make sense)."""
    return ctx.cases(ALL_KINDS - {GroupKind.INVALID_INPUT}, (".in", ".ans"))


def _invalid(case: TestCase) -> bool:
    return GroupKind.of(case.name) is GroupKind.INVALID_ANSWER


def check_answer_files(ctx: Context) -> list[Finding]:
    built, findings = validators(ctx, ctx.problem.answer_validators, "answer")
    if not built:
        return findings
    cache = ctx.verdict_cache()
    root = ctx.problem.root
    tasks = [(program, exe, case) for case in _cases(ctx) for program, exe in built]

    def run(task: tuple[Program, Executable, TestCase]) -> bool | str:
        _program, exe, case = task
        own = case.config.data if case.config is not None else None
        args = [JUDGE_INPUT, *answer_validator_args(ctx.problem.settings(case.group), own)]
        answer, given = root / case.files[".ans"], root / case.files[".in"]
        verdict = run_validator(ctx, exe, args, answer, cache, input_file=given)
        return True if verdict.valid else verdict.message

    rejected: set[str] = set()  # (the answers of data/invalid_answer some validator refused)
    for (program, _exe, case), verdict in zip(tasks, ctx.map(run, tasks), strict=True):
        if verdict is True:
            continue
        if _invalid(case):
            rejected.add(case.name)
        else:
            text = f"answer validator {program.name} rejects this answer: {verdict}"
            findings.append(error("answer-validator", text, case.files[".ans"]))
    for case in {case.name: case for _, _, case in tasks if _invalid(case)}.values():
        if case.name not in rejected:
            text = "no answer validator rejects this answer of data/invalid_answer"
            findings.append(error("answer-validator", text, case.files[".ans"]))
    return findings
