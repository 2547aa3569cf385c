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

# Every spelling of a verdict, one row each: the submissions/ directory that claims it
# (both format versions), DOMjudge's name (its @EXPECTED_RESULTS@ and judgings), and the
# other names packages write (Kattis' long names, DOMjudge's older or underscored ones).
SPELLINGS: dict[Verdict, tuple[str | None, str, tuple[str, ...]]] = {
    Verdict.AC: ("accepted", "CORRECT", ("ACCEPTED",)),
    Verdict.WA: ("wrong_answer", "WRONG-ANSWER", ("WRONG_ANSWER", "NO-OUTPUT", "NO_OUTPUT")),
    Verdict.TLE: ("time_limit_exceeded", "TIMELIMIT", ("TIME_LIMIT_EXCEEDED",)),
    Verdict.RTE: ("run_time_error", "RUN-ERROR", ("RUN_TIME_ERROR",)),
    Verdict.MLE: (None, "MEMORY-LIMIT", ()),
    Verdict.OLE: (None, "OUTPUT-LIMIT", ("OUTPUT_LIMIT",)),
    Verdict.CE: (None, "COMPILER-ERROR", ("COMPILER_ERROR",)),
    Verdict.JE: (None, "JUDGE-ERROR", ()),
}
# the directories of the verdicts a submission may claim, in the results table's order
CLAIM_DIRECTORIES = tuple(row[0] for row in SPELLINGS.values() if row[0] is not None)


def directory_of(verdict: Verdict) -> str | None:
    """The submissions/ directory that claims ``verdict`` (``wrong_answer``), if any."""
    return SPELLINGS[verdict][0]


def domjudge_name(verdict: Verdict) -> str:
    """DOMjudge's name of ``verdict`` (``WRONG-ANSWER``)."""
    return SPELLINGS[verdict][1]


def named(text: str) -> Verdict | None:
    """The verdict any spelling above names (our codes, DOMjudge's, Kattis' long names),
    exactly as written; None for no verdict."""
    return _BY_NAME.get(text)


_BY_NAME = {
    name: verdict
    for verdict, (_, dj, others) in SPELLINGS.items()
    for name in (verdict.value, dj, *others)
}


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
