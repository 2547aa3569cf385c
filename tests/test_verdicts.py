"""verdicts.py: the verdict a run earns by how it ended, read by the outcome's name."""

from __future__ import annotations

from problemtools_py.sandbox.results import Outcome
from problemtools_py.verdicts import Verdict, parse_verdict, verdict_of_run


def test_every_way_a_run_ends_has_its_verdict() -> None:
    assert {o: verdict_of_run(o) for o in Outcome} == {
        Outcome.OK: None, Outcome.TLE: Verdict.TLE, Outcome.MLE: Verdict.MLE,
        Outcome.OLE: Verdict.OLE, Outcome.RTE: Verdict.RTE}  # fmt: skip


def test_packages_spell_verdicts_in_any_case() -> None:
    assert [parse_verdict(t) for t in ("ac", " RE ", "Wa", "nope")] == [
        Verdict.AC, Verdict.RTE, Verdict.WA, None]  # fmt: skip
