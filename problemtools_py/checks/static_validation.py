"""Static validation (2023-07 and later): a static validator where a test group asks for
a static validation test case and never for a submit-answer problem, its score's kind
matching the group's aggregation, and its arguments only beside a score."""

from __future__ import annotations

from collections.abc import Iterator

from problemtools_py.checks.registry import check
from problemtools_py.findings import Finding, error
from problemtools_py.model.problem import Problem, TestGroup
from problemtools_py.model.testdata import is_judged


def _aggregation(problem: Problem, group: TestGroup) -> str:
    """The group's score aggregation (``sum`` for secret, else ``pass-fail`` unless set)."""
    own = group.own_settings.get("score_aggregation")
    if isinstance(own, str):
        return own
    return "sum" if group.name == "secret" else "pass-fail"


def _group_findings(problem: Problem, group: TestGroup) -> Iterator[Finding]:
    own = group.own_settings
    doc = group.config
    score = own.get("static_validation_score")
    if score is None:
        if "static_validator_args" in own:
            yield error(
                "static-validation",
                "static_validator_args without static_validation_score",
                doc.rel,
                doc.line_of(("static_validator_args",)),
            )
        return
    line = doc.line_of(("static_validation_score",))
    if problem.static_validator is None:
        yield error(
            "static-validation",
            "static_validation_score defines a static validation test case, but the "
            "package has no static_validator/",
            doc.rel,
            line,
        )
    pass_fail = not problem.config.scoring or _aggregation(problem, group) == "pass-fail"
    if score == "pass-fail" and not pass_fail:
        yield error(
            "static-validation",
            "static_validation_score: pass-fail needs pass-fail aggregation in this group "
            "(or a pass-fail problem)",
            doc.rel,
            line,
        )
    elif score != "pass-fail" and pass_fail:
        yield error(
            "static-validation",
            "a numeric static_validation_score needs a scoring problem and a group with sum "
            "or min aggregation; use 'pass-fail'",
            doc.rel,
            line,
        )


@check("validators")
def static_validation(problem: Problem) -> Iterator[Finding]:
    if problem.legacy:
        return
    if problem.static_validator is not None and "submit-answer" in problem.config.types:
        yield error(
            "static-validation",
            "a submit-answer problem may not have a static validator",
            problem.static_validator.rel,
        )
    for group in problem.data.walk() if problem.data is not None else ():
        if is_judged(group.name):
            yield from _group_findings(problem, group)
