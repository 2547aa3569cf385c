"""Each source's layout read into one form, and rows that are not in it told why."""

from __future__ import annotations

import json

import pytest
from helpers.upstream_rows import SUM, SUM_PY2, deepcoder_row, statement, sum_tests, taco_row
from hypothesis import given
from hypothesis import strategies as st

from problemtools_py.upstream.problem import (
    MAX_REFERENCES,
    NotSelected,
    UnreadableRow,
    limit_mb,
    limit_seconds,
    python_references,
)
from problemtools_py.upstream.sources import READERS


def test_a_taco_row_keeps_its_tests_references_limits_and_origin() -> None:
    row = taco_row(statement("t"), [SUM_PY2, SUM, SUM, ""], sum_tests(3), time_limit="2 seconds")
    got = READERS["taco"](row, "taco.parquet:7")
    assert got.tests == tuple(sum_tests(3)) and got.call is None
    assert got.references == (SUM_PY2, SUM)  # (empty and repeated ones left out)
    assert (got.time_limit_s, got.memory_mb) == (2.0, 256)
    assert got.origin["dataset"] == "TACO" and got.origin["url"] == "https://example.org/p"
    assert got.source == "taco" and got.key == "taco.parquet:7"


def test_a_taco_call_based_row_names_its_function() -> None:
    row = taco_row(statement("c"), ["def f(a):\n    return a\n"], [([1], [1])], fn_name="f")
    got = READERS["taco"](row, "k")
    assert got.call == "f" and json.loads(got.tests[0][0]) == [1]


def test_deepcoder_configs_read_their_tests_encodings() -> None:
    pi = deepcoder_row("P", [SUM], [{"type": "stdin_stdout", "input": "1 2\n", "output": "3\n"}])
    got = READERS["deepcoder-primeintellect"](pi, "k")
    assert got.tests == (("1 2\n", "3\n"),) and got.source == "primeintellect"
    lcb = deepcoder_row("P", [], [{"testtype": "functional", "input": "[1, 2]\n3",
                                   "output": "4", "metadata": {"func_name": "g"}}])  # fmt: skip
    assert READERS["deepcoder-lcbv5"](lcb, "k").call == "g"
    lcb_stdin = deepcoder_row("P", [], [{"testtype": "stdin", "input": "5\n", "output": "5\n"}])
    assert READERS["deepcoder-lcbv5"](lcb_stdin, "k").tests == (("5\n", "5\n"),)
    taco = deepcoder_row("P", [SUM], {"inputs": ["1 2\n"], "outputs": ["3\n"]},
                         {"time_limit": 3})  # fmt: skip
    got = READERS["deepcoder-taco"](taco, "k")
    assert got.tests == (("1 2\n", "3\n"),) and got.time_limit_s == 3.0
    assert got.origin == {"dataset": "DeepCoder-Preview-Dataset", "config": "taco"}


@pytest.mark.parametrize(
    ("row", "why"),
    [
        ({"question": "", "input_output": "{}"}, "no question"),
        ({"question": "Q", "input_output": "{"}, "input_output is not JSON"),
        ({"question": "Q", "input_output": "[1]"}, "must be an object"),
        ({"question": "Q", "input_output": '{"inputs": ["1"], "outputs": []}'}, "1 inputs but 0"),
        ({"question": "Q", "input_output": '{"inputs": [], "outputs": []}'}, "no tests"),
    ],
)
def test_a_row_out_of_layout_says_why(row: dict[str, object], why: str) -> None:
    with pytest.raises(UnreadableRow, match=why):
        READERS["taco"](row, "k")


def test_a_deepcoder_row_without_tests_is_unreadable() -> None:
    with pytest.raises(UnreadableRow, match="tests"):
        READERS["deepcoder-primeintellect"]({"problem": "P", "tests": ""}, "k")


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("2 seconds", 2.0), ("1 second", 1.0), ("1.5 s", 1.5), ("500 ms", 0.5), (3, 3.0),
     ("None", None), ("", None), (None, None), ("fast", None), (0, None), (True, None)],
)  # fmt: skip
def test_upstream_time_limits_in_their_units(text: object, seconds: float | None) -> None:
    assert limit_seconds(text) == seconds


@pytest.mark.parametrize(
    ("text", "mb"),
    [("256 megabytes", 256), ("64 MB", 64), ("1 gigabyte", 1024), ("65536 kilobytes", 64),
     (512, 512), ("None", None), (None, None)],
)  # fmt: skip
def test_upstream_memory_limits_in_their_units(text: object, mb: int | None) -> None:
    assert limit_mb(text) == mb


@given(st.one_of(st.text(max_size=30), st.floats(), st.integers(), st.none()))
def test_a_limit_is_none_or_a_positive_finite_number(value: object) -> None:
    for got in (limit_seconds(value), limit_mb(value)):
        assert got is None or 0 < got < 1e9


def test_references_are_bounded_in_number_and_size() -> None:
    many = [f"print({i})\n" for i in range(3 * MAX_REFERENCES)]
    assert len(python_references(many)) == MAX_REFERENCES
    assert python_references(["x" * (2 << 20), 5, "print(1)"]) == ("print(1)",)
    assert python_references("print(1)") == ()


PROMPT = ("Solve the following coding problem using the programming language python:\n\n"
          "Add the numbers.\n\nInput: two numbers.\n\nThe input will be stdin and you "
          "should print your solution to stdout\n\n\nNow solve the problem and return the "
          "code.")  # fmt: skip


def test_primeintellects_prompt_is_unwrapped_to_its_problem() -> None:
    row = {"prompt": PROMPT, "gold_standard_solution": f"```python\n{SUM}```",
           "verification_info": json.dumps({"language": "python", "test_cases": [
               {"type": "stdin_stdout", "input": "1 2\n", "output": "3\n"}]}),
           "metadata": json.dumps({"time_limit": "2 seconds", "problem_url": "u"}),
           "problem_id": "vfc_1", "source": "codeforces"}  # fmt: skip
    got = READERS["primeintellect"](row, "k")
    assert got.statement == "Add the numbers.\n\nInput: two numbers.\n"
    assert got.references == (SUM,) and got.tests == (("1 2\n", "3\n"),)
    assert got.time_limit_s == 2.0 and got.origin["url"] == "u"
    wrapped = deepcoder_row(PROMPT, [SUM], [{"type": "stdin_stdout", "input": "1", "output": "1"}])
    assert READERS["deepcoder-primeintellect"](wrapped, "k").statement.startswith("Add the")


def test_primeintellects_other_languages_are_not_selected() -> None:
    row = {"prompt": PROMPT.replace("python:", "rust:"), "gold_standard_solution": "fn main(){}",
           "verification_info": {"language": "rust", "test_cases": [
               {"type": "stdin_stdout", "input": "1", "output": "1"}]}}  # fmt: skip
    with pytest.raises(NotSelected, match="rust"):
        READERS["primeintellect"](row, "k")


def test_a_livecodebench_row_with_packed_private_tests() -> None:
    import base64
    import pickle
    import zlib

    private = [{"input": "5\n", "output": "10\n", "testtype": "stdin"}]
    packed = base64.b64encode(zlib.compress(pickle.dumps(json.dumps(private)))).decode()
    row = {"question_title": "Double", "question_content": "Print twice the number.",
           "platform": "atcoder", "question_id": "abc001_a", "contest_id": "abc001",
           "contest_date": "2023-05-06T00:00:00", "starter_code": "", "difficulty": "easy",
           "public_test_cases": json.dumps([{"input": "1\n", "output": "2\n",
                                             "testtype": "stdin"}]),
           "private_test_cases": packed, "metadata": "{}"}  # fmt: skip
    got = READERS["livecodebench"](row, "k")
    assert got.tests == (("1\n", "2\n"), ("5\n", "10\n")) and got.references == ()
    assert got.origin["contest_date"] == "2023-05-06" and got.origin["platform"] == "atcoder"


def test_rows_built_to_exhaust_the_reader_are_unreadable_not_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(UnreadableRow, match=r"not JSON|tests"):
        READERS["taco"]({"question": "Q", "input_output": deep}, "k")
    with pytest.raises(UnreadableRow, match="over 1 MiB"):
        READERS["taco"]({"question": "Q" * ((1 << 20) + 1), "input_output": "{}"}, "k")
    many = json.dumps([f"print({i})" for i in range(100_000)])
    row = taco_row(statement("many"), [], sum_tests(1))
    row["solutions"] = many
    assert len(READERS["taco"](row, "k").references) == MAX_REFERENCES
