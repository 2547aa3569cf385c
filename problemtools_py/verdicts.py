"""The one vocabulary of verdicts: the expectations of submissions (model), judging, the
results table, the JSON report and the grader's statuses all speak it."""

from __future__ import annotations

import enum


class Verdict(enum.Enum):
    AC = "AC"  # accepted
    WA = "WA"  # wrong answer
    TLE = "TLE"  # over the CPU time limit (or stopped by the wall-clock backstop)
    MLE = "MLE"  # over the memory limit
    OLE = "OLE"  # over the output limit
    RTE = "RTE"  # crashed: non-zero exit or a signal
    CE = "CE"  # did not compile
    JE = "JE"  # a validator or grader misbehaved: the judge's problem, never the submission's


REJECTED = frozenset({Verdict.WA, Verdict.TLE, Verdict.RTE, Verdict.MLE, Verdict.OLE})


def verdict_of_run(outcome: enum.Enum) -> Verdict | None:
    """The verdict a run earns by how it ended (``sandbox.results.Outcome``: TLE, MLE, OLE,
    RTE are the verdicts of those names), or None when it ended well and its output
    decides. Read by the outcome's name: the sandbox knows nothing of verdicts."""
    return None if outcome.name == "OK" else Verdict[outcome.name]


def parse_verdict(text: str) -> Verdict | None:
    """A verdict as packages write it (any case; ``RE`` is ``RTE``), or None."""
    upper = text.strip().upper()
    try:
        return Verdict("RTE" if upper == "RE" else upper)
    except ValueError:
        return None
