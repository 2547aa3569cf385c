"""open-r1/codeforces rows: the card's selection, the statement, official and generated
tests, and the Python 3 references from codeforces-submissions."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.upstream_rows import (
    SUM,
    SUM_PY2,
    codeforces_row,
    submission_row,
    sum_tests,
    write_parquet,
)

from problemtools_py.upstream.codeforces import (
    CodeforcesReader,
    GeneratedTests,
    Selection,
    Submissions,
)
from problemtools_py.upstream.problem import NotSelected, UnreadableRow
from problemtools_py.upstream.statement import examples


def reader(tmp_path: Path, generated: Path | None = None) -> CodeforcesReader:
    subs = write_parquet(tmp_path / "accepted.parquet", [
        submission_row("100/A", SUM), submission_row("100/A", SUM, "PyPy 3-64"),
        submission_row("100/A", SUM_PY2, "Python 2"), submission_row("100/A", "x", "GNU C++17"),
        submission_row("100/A", "print(0)", verdict="WRONG_ANSWER"),
        submission_row("100/B", "# b\n" + SUM, "PyPy 3")])  # fmt: skip
    return CodeforcesReader(Submissions([subs]), GeneratedTests(generated))


def test_a_row_with_its_references_tests_and_origin(tmp_path: Path) -> None:
    got = reader(tmp_path)(codeforces_row("100/A", "a", sum_tests(3)), "cf.parquet:0")
    assert got.references == (SUM,)  # (Python 3 and PyPy 3 accepted only, each once)
    assert got.tests == tuple(sum_tests(3)) and got.source == "codeforces"
    assert (got.time_limit_s, got.memory_mb) == (1.0, 256)
    assert got.origin["rating"] == 1500 and got.origin["contest_date"] == "2023-04-01"
    assert examples(got.statement) == [("1 2\n", "3\n")]
    assert got.statement.startswith("Ta\n\n")


def test_generated_tests_follow_the_official_ones(tmp_path: Path) -> None:
    (tmp_path / "gen").mkdir()
    write_parquet(tmp_path / "gen" / "test_cases_100.parquet", [
        {"problem_id": "100/A", "test_case_i": 1, "input": "9 9\n", "output": "18\n"},
        {"problem_id": "100/A", "test_case_i": 0, "input": "8 8\n", "output": "16\n"},
        {"problem_id": "100/B", "test_case_i": 0, "input": "0 0\n", "output": "0\n"}])  # fmt: skip
    got = reader(tmp_path, tmp_path / "gen")(codeforces_row("100/A", "a", sum_tests(1)), "k")
    assert got.tests == (*sum_tests(1), ("8 8\n", "16\n"), ("9 9\n", "18\n"))


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"rating": 1100}, "rating 1100"), ({"rating": 2500}, "rating 2500"),
        ({"rating": None}, "rating None"),
        ({"contest_start": 1730000000}, "not before"),
        ({"input_mode": "file"}, "not stdin/stdout"),
        ({"interaction_format": "Interact."}, "interactive"),
        ({"generated_checker": "int main() {}"}, "checker"),
    ],
)  # fmt: skip
def test_rows_outside_the_cards_selection(tmp_path: Path, fields: dict[str, object],
                                          why: str) -> None:  # fmt: skip
    with pytest.raises(NotSelected, match=why):
        reader(tmp_path)(codeforces_row("100/A", "a", sum_tests(), **fields), "k")


def test_a_row_without_tests_or_description_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(UnreadableRow, match="no tests"):
        reader(tmp_path)(codeforces_row("100/A", "a", []), "k")
    with pytest.raises(UnreadableRow, match="no description"):
        reader(tmp_path)(codeforces_row("100/A", "a", sum_tests(), description=""), "k")


def test_the_selection_bounds_are_inclusive() -> None:
    assert Selection().why_not(codeforces_row("1/A", "a", [], rating=1200)) is None
    assert Selection().why_not(codeforces_row("1/A", "a", [], rating=2400)) is None


def test_rejected_submissions_are_the_known_wrong_programs(tmp_path: Path) -> None:
    from helpers.upstream_rows import WRONG_CPP

    from problemtools_py.upstream.codeforces import judge_language

    incorrect = write_parquet(tmp_path / "incorrect.parquet", [
        submission_row("100/A", WRONG_CPP, "GNU C++17", "WRONG_ANSWER"),
        submission_row("100/A", "print(0)", "PyPy 3-64", "TIME_LIMIT_EXCEEDED"),
        submission_row("100/A", "print 0", "Python 2", "WRONG_ANSWER"),
        submission_row("100/A", "class Main {}", "Java 21", "RUNTIME_ERROR")])  # fmt: skip
    accepted = write_parquet(tmp_path / "accepted.parquet", [submission_row("100/A", SUM)])
    reader = CodeforcesReader(Submissions([accepted], [incorrect]), GeneratedTests(None))
    got = reader(codeforces_row("100/A", "a", sum_tests(2)), "k")
    assert got.references == (SUM,)
    assert got.wrong == (("cpp", WRONG_CPP), ("python3", "print(0)"), ("java", "class Main {}"))
    assert [judge_language(n) for n in ("GNU C++20 (64)", "Python 3", "Kotlin 1.9", "Java 8")] \
        == ["cpp", "python3", None, "java"]
