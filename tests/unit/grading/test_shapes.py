"""grading.shapes: the test shapes RL datasets ship (issue 43), each read into one Suite;
a malformed one is a clear ValueError. Pure: nothing runs here."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from problemtools_py.grading.callbased import APPS, EXACT, Call, expected_text
from problemtools_py.grading.shapes import Suite, memory_mb_of, plain, seconds_of, suite_of

PAIRS = (("1\n", "1\n"), ("2 3\n", "5\n"))
STDIO = Suite(PAIRS)


@pytest.mark.parametrize(
    "value",
    [
        [list(p) for p in PAIRS],  # this dataset's tests_json
        {"inputs": ["1\n", "2 3\n"], "outputs": ["1\n", "5\n"]},  # APPS, TACO, PRIME
        {"input_output": json.dumps({"inputs": ["1\n", "2 3\n"], "outputs": ["1\n", "5\n"]})},
        {  # CodeContests: public, private, generated, in that order
            "public_tests": {"input": ["1\n"], "output": ["1\n"]},
            "private_tests": {"input": [], "output": []},
            "generated_tests": {"input": ["2 3\n"], "output": ["5\n"]},
        },
        [{"input": "1\n", "output": "1\n", "testtype": "stdin"},  # LiveCodeBench, DeepCoder
         {"input": "2 3\n", "output": "5\n", "testtype": "stdin"}],
        [{"input": "1\n", "output": "1\n"}, {"input": "2 3\n", "output": "5\n"}],  # Codeforces
        {"language": "python", "test_cases": [  # open-r1's verification_info
            {"input": "1\n", "output": "1\n", "type": "stdin_stdout"},
            {"input": "2 3\n", "output": "5\n", "type": "stdin_stdout"}]},
    ],
    ids=["pairs", "apps", "apps-row", "codecontests", "lcb-stdin", "records", "open-r1"],
)  # fmt: skip
def test_every_stdin_shape_and_its_json_text(value: object) -> None:
    assert suite_of(value) == STDIO
    assert suite_of(json.dumps(value)) == STDIO


def test_numpy_arrays_as_pandas_hands_them_to_verl() -> None:
    inputs = np.array(["1\n", "2 3\n"], dtype=object)
    outputs = np.array(["1\n", "5\n"], dtype=object)
    assert suite_of({"inputs": inputs, "outputs": outputs}) == STDIO
    assert suite_of(np.array([list(p) for p in PAIRS], dtype=object)) == STDIO
    assert plain({"n": np.int64(3), "x": np.float32(0.5)}) == {"n": 3, "x": 0.5}


def test_a_python_literal_as_apps_rows_keep_it() -> None:
    assert suite_of(str({"inputs": ["1\n", "2 3\n"], "outputs": ["1\n", "5\n"]})) == STDIO


def test_numbers_and_lists_of_lines_are_text() -> None:
    got = suite_of({"inputs": [["1", "2"], 7], "outputs": [3, ["a", "b"]]})
    assert got.tests == (("1\n2", "3"), ("7", "a\nb"))


def test_call_based_apps_and_taco() -> None:
    got = suite_of({"fn_name": "add", "inputs": [[1, 2], [[1], 3]], "outputs": [[3], [[1, 3]]]})
    assert got.call == Call("add")
    assert got.tests == (("[1, 2]", expected_text([3], APPS)),
                         ("[[1], 3]", expected_text([[1, 3]], APPS)))  # fmt: skip


def test_call_based_livecodebench_one_json_argument_per_line() -> None:
    records = [{"input": "[2, 7]\n9", "output": "[0, 1]", "testtype": "functional",
                "metadata": json.dumps({"func_name": "twoSum"})}]  # fmt: skip
    got = suite_of(records)
    assert got == Suite((("[[2, 7], 9]", expected_text([0, 1], EXACT)),), Call("twoSum"))


def test_call_based_primeintellect_names_the_function_per_test() -> None:
    records = [{"type": "function_call", "fn_name": "f", "input": [1, 2], "output": [3]}]
    assert suite_of(records) == Suite((("[1, 2]", expected_text([3], APPS)),), Call("f"))


def test_the_function_may_come_from_the_row() -> None:
    got = suite_of({"inputs": [[1]], "outputs": [[1]]}, fn_name="same")
    assert got.call == Call("same")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([], "no tests"),
        ("[]", "no tests"),
        ({"inputs": ["1"], "outputs": []}, "1 inputs but 0 outputs"),
        ({"cases": []}, "needs inputs and outputs"),
        ([["1"]], "test 0 is not a pair"),
        ([[None, "1"]], "must be text"),
        ("[1, 2", "not valid JSON"),
        (3, "must be a list or an object"),
        ([{"input": "1"}], "needs an input and an output"),
        ([{"input": "1", "output": "1", "testtype": "functional"}], "function's name"),
        ([{"input": "1", "output": "1", "testtype": "functional", "metadata": {"func_name": "f"}},
          {"input": "1", "output": "1", "testtype": "stdin"}], "mix"),
        ({"fn_name": "f", "inputs": ["x y"], "outputs": [1]}, "not valid JSON"),
        ({"public_tests": {"input": ["1"], "output": []}}, "one length"),
    ],
)  # fmt: skip
def test_malformed_tests_say_what_is_wrong(value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        suite_of(value)


@given(st.lists(st.tuples(st.text(), st.text()), min_size=1, max_size=5))
def test_any_pairs_read_the_same_in_each_shape(pairs: list[tuple[str, str]]) -> None:
    columns = {"inputs": [i for i, _ in pairs], "outputs": [o for _, o in pairs]}
    records = [{"input": i, "output": o} for i, o in pairs]
    want = Suite(tuple(pairs))
    assert suite_of([list(p) for p in pairs]) == want
    assert suite_of(json.dumps(columns)) == want
    assert suite_of(records) == want


@pytest.mark.parametrize(
    ("fields", "mb"),
    [
        ({}, None),
        ({"memory_limit": 0, "memory_limit_bytes": 0}, None),  # (CodeContests' "none")
        ({"memory_limit": 256}, 256),
        ({"memory_limit": "256"}, 256),
        ({"memory_limit_bytes": 268435456}, 256),
        ({"memory_limit_bytes": 1}, 1),  # (rounded up)
        ({"memory_mb": 512, "memory_limit": 256}, 512),  # (ours first)
    ],
)
def test_a_rows_memory_limit_in_each_datasets_unit(
    fields: dict[str, object], mb: int | None
) -> None:
    assert memory_mb_of(fields) == mb


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(None, 2.0), ("", 2.0), (1.5, 1.5), ("3", 3.0), ({"seconds": 2, "nanos": 500000000}, 2.5)],
)
def test_a_time_limit_in_each_datasets_shape(value: object, seconds: float) -> None:
    assert seconds_of(value, 2.0, 120.0) == seconds


@pytest.mark.parametrize("value", [0, -1, "x", True, float("nan"), 121, [1]])
def test_a_time_limit_that_is_no_time_is_refused(value: object) -> None:
    with pytest.raises(ValueError, match="time_limit"):
        seconds_of(value, 2.0, 120.0)
