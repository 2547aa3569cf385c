"""model/expectations.py: what a submission's tags claim, counted as DOMjudge counts them
(one file carries the tags: one list of results, one score)."""

from __future__ import annotations

import pytest

from problemtools_py.model.expectations import find_tags, resolve
from problemtools_py.verdicts import Verdict as V


def _resolve(files: dict[str, str], category: str | None = None, scoring: bool = False,
             modern: bool = False):  # type: ignore[no-untyped-def]  # fmt: skip
    tags = [tag for rel, text in files.items() for tag in find_tags(text, rel)]
    return resolve(category, tags, modern, scoring)


def test_one_tag_may_list_several_results() -> None:
    found, problems = _resolve({"a.cpp": "// @EXPECTED_RESULTS@: ACCEPTED, TIME_LIMIT_EXCEEDED\n"})
    assert problems == [] and found is not None
    assert found.permitted == found.required == frozenset({V.AC, V.TLE})


def test_results_beside_a_score_are_both_read_on_a_scoring_problem() -> None:
    text = "# @EXPECTED_RESULTS@: CORRECT\n# @EXPECTED_SCORE@: 60\n"
    found, problems = _resolve({"a.py": text}, scoring=True)
    assert problems == [] and found is not None
    assert (found.permitted, found.score) == (frozenset({V.AC}), (60.0, 60.0))
    assert found.source == "@EXPECTED_RESULTS@: CORRECT @EXPECTED_SCORE@: 60"
    _, problems = _resolve({"a.py": text}, scoring=False)
    assert [p.message for p in problems] == [
        "@EXPECTED_SCORE@: 60: a score is only allowed on a scoring problem"]


@pytest.mark.parametrize(("files", "where", "text"), [
    ({"a.py": "# @EXPECTED_RESULTS@: CORRECT\n# @EXPECTED_RESULTS@: WRONG-ANSWER\n"},
     ("a.py", 2), "more than one @EXPECTED_RESULT(S)@ tag"),
    ({"a.py": "# @EXPECTED_SCORE@: 1\n# @EXPECTED_SCORE@: 2\n"}, ("a.py", 2),
     "more than one @EXPECTED_SCORE@ tag"),
    ({"a.py": "# @EXPECTED_RESULT@: 50\n# @EXPECTED_SCORE@: 50\n"}, ("a.py", 1),
     "both give a score"),
    ({"x/a.cpp": "// @EXPECTED_RESULTS@: CORRECT\n", "x/b.h": "\n// @EXPECTED_RESULTS@: CORRECT\n"},
     ("x/b.h", 2), "tags in more than one file of this submission (x/a.cpp too)"),
    ({"a.c": " * @EXPECTED_RESULTS@: NO-OUTPUT\n * @EXPECTED_SCORE@: NO-OUTPUT\n"}, ("a.c", 1),
     "two lists of expected results"),  # (DOMjudge's check_manually/ example)
])  # fmt: skip
def test_a_tag_too_many_is_named_where_it_is(
    files: dict[str, str], where: tuple[str, int], text: str
) -> None:
    found, problems = _resolve(files, scoring=True)
    (problem,) = problems
    assert found is None and text in problem.message and problem.is_error
    if "both give" not in text:
        assert (problem.rel, problem.line) == where
        # DOMjudge's SubmissionService does not import such a submission: its extension
        assert problem.domjudge == "DOMjudge does not import such a submission"


def test_a_score_that_is_no_number_is_read_as_results_as_domjudge_reads_it() -> None:
    found, problems = _resolve({"a.c": "// @EXPECTED_SCORE@: WRONG-ANSWER\n"})
    assert problems == [] and found is not None and found.required == frozenset({V.WA})
    _, problems = _resolve({"a.c": "// @EXPECTED_RESULTS@: CHECK-MANUALLY\n"})
    (problem,) = problems
    assert problem.is_error and "a person checks the result" in (problem.domjudge or "")


@pytest.mark.parametrize(("category", "tag", "told"), [
    ("accepted", "CORRECT", False),  # the same claim as the directory's
    ("accepted", "ACCEPTED", False),
    ("accepted", "WRONG-ANSWER", True),
    ("wrong_answer", "WRONG-ANSWER", False),
])  # fmt: skip
def test_a_tag_saying_what_its_directory_says_is_no_disagreement(
    category: str, tag: str, told: bool
) -> None:
    found, problems = _resolve({"a.c": f"/* @EXPECTED_RESULTS@: {tag} */\n"}, category)
    assert found is not None and found.source == f"directory {category}/"
    assert [p.message for p in problems] == (
        [f"tag disagrees with directory {category}/, which decides"] if told else []
    )
