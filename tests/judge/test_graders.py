"""The legacy default grader in every mode, custom grader programs, and the 2023-07
score aggregation."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.judgekit import Kit
from helpers.packages import SAMPLES

from problemtools_py.judge.graders import (
    CaseScore,
    CustomGrader,
    aggregate,
    default_grader,
    parse_range,
)
from problemtools_py.judge.held import HeldJail
from problemtools_py.sandbox.results import Limits
from problemtools_py.verdicts import Verdict

MIXED = [(Verdict.AC, 10.0), (Verdict.WA, 0.0), (Verdict.TLE, 0.0), (Verdict.AC, 30.0)]


@pytest.mark.parametrize(("results", "flags", "verdict", "score"), [
    ([], [], Verdict.AC, 0.0),  # an empty group
    ([(Verdict.AC, 1.0), (Verdict.AC, 2.0)], [], Verdict.AC, 3.0),
    (MIXED, [], Verdict.TLE, 40.0),  # worst_error: TLE is worse than WA
    (MIXED, ["no_errors"], Verdict.TLE, 40.0),
    (MIXED, ["first_error"], Verdict.WA, 40.0),
    (MIXED, ["always_accept"], Verdict.AC, 40.0),
    (MIXED, ["avg"], Verdict.TLE, 10.0),
    (MIXED, ["min"], Verdict.TLE, 0.0),
    (MIXED, ["max"], Verdict.TLE, 30.0),
    (MIXED, ["accept_if_any_accepted"], Verdict.AC, 40.0),
    ([(Verdict.WA, 0.0), (Verdict.RTE, 0.0), (Verdict.JE, 0.0)], [], Verdict.JE, 0.0),
    ([(Verdict.AC, 0.0), (Verdict.AC, 70.0)], ["ignore_sample"], Verdict.AC, 70.0),
    ([(Verdict.AC, 5.0)], ["first_error", "worst_error", "max", "sum"], Verdict.AC, 5.0),  # last flag wins
])
def test_default_grader(results: list[tuple[str, float]], flags: list[str], verdict: str,
                        score: float) -> None:
    grade = default_grader(results, flags)
    assert (grade.verdict, grade.score) == (verdict, score), grade.error


@pytest.mark.parametrize(("results", "flags", "why"), [
    ([], ["avg"], "avg of nothing"),
    ([(Verdict.AC, 1.0)] * 3, ["ignore_sample"], "expects 1 or 2"),
    ([(Verdict.AC, 1.0)], ["best"], "unknown flag 'best'"),
])
def test_default_grader_judge_errors(results: list[tuple[str, float]], flags: list[str], why: str) -> None:
    grade = default_grader(results, flags)
    assert grade.verdict == Verdict.JE and why in grade.error


def test_range() -> None:
    assert parse_range("0 30") == (0.0, 30.0)
    assert parse_range("-inf +inf") == (float("-inf"), float("inf"))


def test_sample_custom_grader(kit: Kit, tmp_path: Path) -> None:
    limits = Limits(cpu_seconds=5)
    grader = CustomGrader(kit.build_file(SAMPLES / "bigsum/graders/grader.py"), limits)
    feed = tmp_path / "grader.in"
    with HeldJail(kit.pool, grader.executable, limits) as jail:  # one jail, runs after runs
        assert grader.grade(jail, [(Verdict.AC, 0), (Verdict.AC, 100)], [], feed).score == 100
        grade = grader.grade(jail, [(Verdict.WA, 0), (Verdict.AC, 30)], ["sum"], feed)
        assert (grade.verdict, grade.score) == (Verdict.AC, 30)
        assert grader.grade(jail, [(Verdict.RTE, 0), (Verdict.WA, 0)], [], feed).verdict == Verdict.RTE


@pytest.mark.parametrize("source", [
    "print('great job')",
    "print('AC 1')\nprint('AC 2')",
    "print('AC 10')\nraise SystemExit(1)",
    "while True: pass",
])
def test_misbehaving_custom_grader_is_je(kit: Kit, tmp_path: Path, source: str) -> None:
    limits = Limits(cpu_seconds=1)
    grader = CustomGrader(kit.build("g.py", source), limits)
    with HeldJail(kit.pool, grader.executable, limits) as jail:
        grade = grader.grade(jail, [(Verdict.AC, 1.0)], [], tmp_path / "grader.in")
        assert grade.verdict == Verdict.JE and "grader failed" in grade.error
        # the jail serves the next run as a fresh one would
        again = grader.grade(jail, [(Verdict.AC, 1.0)], [], tmp_path / "grader.in")
        assert again.verdict == Verdict.JE and "grader failed" in again.error


AC, WA = CaseScore(Verdict.AC), CaseScore(Verdict.WA)


@pytest.mark.parametrize(("cases", "aggregation", "max_score", "verdict", "score"), [
    ([AC, AC], "pass-fail", 30, Verdict.AC, 30),
    ([AC, WA], "pass-fail", 30, Verdict.WA, 0),
    ([AC, WA, AC, AC], "sum", 40, Verdict.WA, 30),
    ([CaseScore(Verdict.AC, multiplier=0.5), AC], "sum", 40, Verdict.AC, 30),
    ([CaseScore(Verdict.AC, score=5), AC], "min", 10, Verdict.AC, 5),
    ([CaseScore(Verdict.AC, score=7), CaseScore(Verdict.AC, score=8)], "sum", None, Verdict.AC, 15),
    ([], "sum", 100, Verdict.AC, 0),
])
def test_modern_aggregation(cases: list[CaseScore], aggregation: str, max_score: float | None,
                            verdict: str, score: float) -> None:
    grade = aggregate(cases, aggregation, max_score)
    assert (grade.verdict, grade.score) == (verdict, score), grade.error


@pytest.mark.parametrize(("cases", "max_score", "why"), [
    ([AC], None, "needs score.txt"),
    ([CaseScore(Verdict.AC, score=3, multiplier=0.5)], 10, "together"),
    ([CaseScore(Verdict.AC, score=30)], 10, "over the case's maximum"),
])
def test_modern_aggregation_judge_errors(cases: list[CaseScore], max_score: float | None, why: str) -> None:
    grade = aggregate(cases, "sum", max_score)
    assert grade.verdict == Verdict.JE and why in grade.error
