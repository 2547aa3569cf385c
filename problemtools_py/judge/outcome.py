"""The verdict a run earns by how it ended, before its output is judged. A module of its
own: a grader of Python completions needs this and none of the judge's build machinery
(which imports YAML and the language table: 30 ms of every gradecode's start)."""

from __future__ import annotations

from problemtools_py.sandbox.results import Outcome
from problemtools_py.verdicts import Verdict

OUTCOME_VERDICT = {
    Outcome.TLE: Verdict.TLE,
    Outcome.MLE: Verdict.MLE,
    Outcome.OLE: Verdict.OLE,
    Outcome.RTE: Verdict.RTE,
}


def verdict_of_run(outcome: Outcome) -> Verdict | None:
    """The verdict a run earns by how it ended; None when it ended well (then its output
    decides)."""
    return OUTCOME_VERDICT.get(outcome)
