"""The one vocabulary of verdicts: judging, the results table, the JSON report, the
expectations of submissions and the grader's statuses all speak it."""

from __future__ import annotations

import enum

from problemtools_py.sandbox.results import Outcome


class Verdict(enum.Enum):
    AC = "AC"  # accepted
    WA = "WA"  # wrong answer
    TLE = "TLE"  # over the CPU time limit (or stopped by the wall-clock backstop)
    MLE = "MLE"  # over the memory limit
    OLE = "OLE"  # over the output limit
    RTE = "RTE"  # crashed: non-zero exit or a signal
    CE = "CE"  # did not compile
    JE = "JE"  # a validator or grader misbehaved: the judge's problem, never the submission's

    @classmethod
    def of_run(cls, outcome: Outcome) -> Verdict | None:
        """The verdict a run earns by how it ended; None when it ended well (its output
        decides)."""
        return _OF_OUTCOME[outcome]


_OF_OUTCOME = {
    Outcome.OK: None,
    Outcome.TLE: Verdict.TLE,
    Outcome.MLE: Verdict.MLE,
    Outcome.OLE: Verdict.OLE,
    Outcome.RTE: Verdict.RTE,
}
