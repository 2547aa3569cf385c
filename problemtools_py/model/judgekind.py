"""Whether a problem needs its own judge: what the dataset's comparator (one expected
output per test, compared token by token) cannot reproduce. Decided here, once, for the
dataset build (which drops such packages, or keeps them with their judge) and for grading
(which then judges with the package's validator)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from problemtools_py.model.problem import Problem
from problemtools_py.model.testdata import GroupKind, cases_in


class JudgeKind(StrEnum):
    """Why, in the order they are told: the first that holds names the problem's judge."""

    INTERACTIVE = "interactive"  # a validator talks to the program
    MULTI_PASS = "multi-pass"  # the program runs again on what the validator asks
    CUSTOM = "custom"  # a custom output validator: several right answers
    FLAGS = "flags"  # the default validator with arguments (a float tolerance, case...)
    SCORING = "scoring"  # partial scores over test groups


# What kattis2parquet says when it leaves such a package out (its drops.jsonl reasons).
DROP_REASONS = {
    JudgeKind.INTERACTIVE: "interactive problem (a validator talks to the program)",
    JudgeKind.MULTI_PASS: "multi-pass problem (the validator runs the program again)",
    JudgeKind.CUSTOM: "custom output validator (several valid answers)",
    JudgeKind.FLAGS: "validator flags the comparator cannot reproduce",
    JudgeKind.SCORING: "scoring problem (partial scores)",
}


@dataclass(frozen=True)
class JudgeNeed:
    """The problem's judge's kind, and the flags the default validator gets."""

    kind: JudgeKind
    detail: str = ""  # the flags, for FLAGS

    @property
    def reason(self) -> str:
        return DROP_REASONS[self.kind]


def judge_need(problem: Problem) -> JudgeNeed | None:
    """The first reason the comparator cannot judge ``problem`` as its judge does, or None
    (a pass-fail problem judged by the default validator without arguments on every test
    case that is judged)."""
    config = problem.config
    if config.interactive:
        return JudgeNeed(JudgeKind.INTERACTIVE)
    if config.multi_pass:
        return JudgeNeed(JudgeKind.MULTI_PASS)
    if problem.output_validator is not None:
        return JudgeNeed(JudgeKind.CUSTOM)
    flags = dict.fromkeys(
        flag
        for case in cases_in(problem.data, {GroupKind.JUDGED}, (".in", ".ans"))
        for flag in problem.output_validator_args(case)
    )
    if flags or config.validator_flags:
        return JudgeNeed(JudgeKind.FLAGS, " ".join(flags or config.validator_flags))
    if config.scoring:
        return JudgeNeed(JudgeKind.SCORING)
    return None
