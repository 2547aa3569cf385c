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


def test_every_spelling_of_a_verdict_has_one_owner() -> None:
    """Issue 59: the claim directories, DOMjudge's names and the long names were spelled
    in seven modules; each is now read from verdicts.SPELLINGS."""
    from problemtools_py import verdicts
    from problemtools_py.author.conteststats import CLAIMED
    from problemtools_py.cli.conteststats import CLAIMS
    from problemtools_py.convert.versions.downgrade_submissions import LEGACY_DIRS
    from problemtools_py.convert.versions.upgrade import DIR_OF_CLAIM
    from problemtools_py.model.expectations import LEGACY_DIRS as LEGACY
    from problemtools_py.model.expectations import MODERN_DIRS

    for verdict, (directory, domjudge, _) in verdicts.SPELLINGS.items():
        assert verdicts.named(domjudge) is verdict and verdicts.named(verdict.value) is verdict
        if directory is not None:
            assert directory in LEGACY and directory in MODERN_DIRS
            assert MODERN_DIRS[directory].source == f"directory {directory}/"
    assert CLAIMS == ("accepted", "wrong_answer", "time_limit_exceeded", "run_time_error")
    assert set(CLAIMED.values()) | {"accepted"} == set(CLAIMS) <= LEGACY_DIRS
    assert DIR_OF_CLAIM == {("WA",): "wrong_answer", ("TLE",): "time_limit_exceeded",
                            ("RTE",): "run_time_error"}  # fmt: skip
    assert verdicts.named("wrong-answer") is None  # (as written: packages' case is theirs)
