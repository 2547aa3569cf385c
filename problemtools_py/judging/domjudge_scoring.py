"""A scoring problem's score as DOMjudge gives it (``--judge domjudge``), which is not
legacy's grader: only directories with their own ``testdata.yaml`` (or
``test_group.yaml``) are groups, and nothing is inherited; a group without subgroups
scores its cases' validator scores (score.txt, of accepted and wrong answers; 0 for other
verdicts) or, without them, its ``accept_score`` once when every case is accepted; a group
with subgroups scores those (``data/sample`` left out under ``ignore_sample``); each
aggregates by the last of ``sum`` (default), ``min``, ``max``, ``avg`` in its
``grader_flags``. The verdict is the first rejected one, in order. (Read from DOMjudge's
SubmissionService::maybeSetScoringResult and ImportProblemService::parseTestCaseGroupMeta.)"""

from __future__ import annotations

from problemtools_py.judge.graders import CaseScore, Grade
from problemtools_py.model.problem import TestGroup
from problemtools_py.model.settings import as_number
from problemtools_py.verdicts import Verdict

AGGREGATIONS = ("sum", "min", "max", "avg")
SCORED = (Verdict.AC, Verdict.WA)  # the verdicts whose score.txt DOMjudge takes


def domjudge_grade(data: TestGroup, results: dict[str, CaseScore]) -> Grade | None:
    """The submission's verdict and score, or None when ``data/`` is no group of
    DOMjudge's (it gives no score then)."""
    if not data.config.exists:
        return None
    score, verdict = _group(data, results)
    return Grade(verdict, score)


def _group(group: TestGroup, results: dict[str, CaseScore]) -> tuple[float, Verdict]:
    settings = group.own_settings
    subgroups = [g for g in group.groups if g.config.exists]
    if subgroups:
        ignore_sample = "ignore_sample" in str(settings.get("grader_flags", "")).split()
        parts = [
            _group(g, results) for g in subgroups if not (ignore_sample and g.name == "sample")
        ]
        scores = [score for score, _ in parts]
        verdicts = [verdict for _, verdict in parts]
    else:
        runs = [results[c.name] for c in group.cases if c.name in results]
        verdicts = [run.verdict for run in runs]
        scores = [
            (run.score if run.verdict in SCORED else 0.0) for run in runs if run.score is not None
        ]
        accept = as_number(settings.get("accept_score"))
        if not scores and accept is not None and runs:
            scores = [accept if all(v is Verdict.AC for v in verdicts) else 0.0]
    verdict = next((v for v in verdicts if v is not Verdict.AC), Verdict.AC)
    return _aggregate(scores, _aggregation(settings.get("grader_flags"))), verdict


def _aggregation(flags: object) -> str:
    chosen = [word for word in str(flags or "").split() if word in AGGREGATIONS]
    return chosen[-1] if chosen else "sum"


def _aggregate(scores: list[float], how: str) -> float:
    if how == "min":
        return min(scores, default=0.0)
    if how == "max":
        return max(scores, default=0.0)
    total = sum(scores)
    return total / len(scores) if how == "avg" and scores else total
