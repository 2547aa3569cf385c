"""What the curation reads in a statement: several answers allowed, and the examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from problemtools_py.upstream.statement import contradiction, examples, several_answers

CODEFORCES = """Sum them.

-----Input-----

The first line contains n.

-----Output-----

Print the answer.

-----Examples-----
Input
3
1 2 3

Output
6

Input
1
5

Output
5



-----Note-----

In the first example the sum is 6.
"""
ATCODER = "Find it.\n\n-----Sample Input-----\n3 4\n\n-----Sample Output-----\n7\n\nExplanation.\n"
CODECHEF = "Do it.\n\n-----Example-----\nInput:\n2\n1 2\nOutput:\n3\nExplanation\nok\n"
HACKEREARTH = "Double it.\n\nSAMPLE INPUT\n5\n\nSAMPLE OUTPUT\n10\n"
MARKDOWN = "Add.\n\n## Examples\n\n### Input 1\n```\n1 2\n```\n### Output 1\n```\n3\n```\n"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (CODEFORCES, [("3\n1 2 3\n", "6\n"), ("1\n5\n", "5\n")]),
        (ATCODER, [("3 4\n", "7\n")]),
        (CODECHEF, [("2\n1 2\n", "3\n")]),
        (HACKEREARTH, [("5\n", "10\n")]),
        (MARKDOWN, [("1 2\n", "3\n")]),
        ("The input is a number. The output is its double.", []),
        ("-----Input-----\nn\n-----Output-----\nn+1\n", []),  # (the format, not examples)
    ],
)
def test_examples_in_each_layout(text: str, shown: list[tuple[str, str]]) -> None:
    assert examples(text) == shown


@pytest.mark.parametrize(
    "text",
    [
        "If there are multiple possible answers, print any of them.",
        "If there are several solutions, output any.",
        "If there exist many optimal answers, you may print any.",
        "Print any valid permutation.",
        "You can output any of them.",
        "Any correct answer will be accepted.",
    ],
)
def test_statements_allowing_several_answers(text: str) -> None:
    assert several_answers(CODEFORCES + text) is not None


@pytest.mark.parametrize(
    "text",
    [CODEFORCES, "Print the number of ways, modulo 10^9+7.", "If there is no answer, print -1."],
)
def test_statements_with_one_answer(text: str) -> None:
    assert several_answers(text) is None


def test_tests_contradicting_an_example() -> None:
    shown = examples(CODEFORCES)
    assert contradiction(shown, (("3\n1  2 3", "6"),)) is None  # (tokens, as the comparator)
    assert contradiction(shown, (("9\n", "9\n"),)) is None  # (no test has its input)
    found = contradiction(shown, (("3\n1 2 3\n", "7\n"),))
    assert found == "example 1's output is '6', its test's '7'"


@given(st.text(max_size=400))
def test_any_text_reads_without_error(text: str) -> None:
    for given_input, wanted in examples(text):
        assert given_input.endswith("\n") or given_input == ""
        assert wanted.endswith("\n") or wanted == ""
    several_answers(text)
