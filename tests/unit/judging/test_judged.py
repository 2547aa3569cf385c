"""judging/judged.py: a case's verdict at a time limit, decided once (JudgedCase.at),
for the verdicts judged at a guessed limit and for the timing runs judged again at the
derived one (issue 41: the second did not respect a verdict that was final)."""

from __future__ import annotations

import pytest

from problemtools_py.judging.judged import JudgedCase
from problemtools_py.model import problem as model
from problemtools_py.verdicts import Verdict

CASE = model.TestCase("secret/01", "secret", {".in": "data/secret/01.in"})


@pytest.mark.parametrize(("verdict", "cpu", "final", "at_one_second"), [
    (Verdict.AC, 0.5, False, Verdict.AC),
    (Verdict.AC, 1.5, False, Verdict.TLE),
    (Verdict.WA, 1.5, False, Verdict.TLE),  # it would not have got to answer in time
    (Verdict.WA, 1.5, True, Verdict.WA),  # rejected before it used the time
    (Verdict.RTE, 1.5, False, Verdict.TLE),  # stopped at the limit before it crashed
    (Verdict.JE, 1.5, False, Verdict.JE),  # the judge's error is no run's
    (Verdict.AC, 1.0, False, Verdict.AC),  # at the limit is not over it
    (Verdict.TLE, 0.2, False, Verdict.TLE),
])  # fmt: skip
def test_a_verdict_at_a_time_limit(verdict: Verdict, cpu: float, final: bool,
                                   at_one_second: Verdict) -> None:  # fmt: skip
    outcome = JudgedCase(CASE, verdict, verdict, cpu, None, "", None, final)
    assert outcome.at(1.0) is at_one_second
