"""Call-based problems (issue 43): the completion's function called in the sandbox with
each test's arguments, its value compared outside as the datasets' harnesses compare it
(APPS/TACO: equal, or equal to the first element of the expected list; LiveCodeBench:
equal; a tuple is a list). Each case is a completion a model could write."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from problemtools_py.grading import Grader
from problemtools_py.grading.callbased import APPS, EXACT, Call, difference, expected_text, harness
from problemtools_py.grading.results import Settings
from problemtools_py.grading.shapes import suite_of

TWO_SUM = """\
class Solution:
    def twoSum(self, nums: List[int], target: int) -> List[int]:
        seen = {}
        for i, x in enumerate(nums):
            if target - x in seen:
                return RESULT
            seen[x] = i
"""
APPS_TESTS = {"fn_name": "twoSum", "inputs": [[[2, 7, 11, 15], 9], [[3, 2, 4], 6]],
              "outputs": [[[0, 1]], [[1, 2]]]}  # fmt: skip
LCB_TESTS = [{"input": "[2,7,11,15]\n9", "output": "[0, 1]", "testtype": "functional",
              "metadata": {"func_name": "twoSum"}}]  # fmt: skip


@pytest.fixture(scope="module")
def grader() -> Iterator[Grader]:
    with Grader(None, Settings(retries=0, raw=True), jobs=1) as g:
        yield g


def grade(grader: Grader, code: str, tests: object) -> tuple[str, str]:
    suite = suite_of(tests)
    got = grader.grade_tests(suite.tests, 2.0, code, "python3", suite.call)
    return str(got.status), got.message


@pytest.mark.parametrize(
    ("result", "tests", "status"),
    [
        ("[seen[target - x], i]", APPS_TESTS, "ok"),
        ("(seen[target - x], i)", APPS_TESTS, "ok"),  # a tuple is a list
        ("[seen[target - x], i]", LCB_TESTS, "ok"),
        ("[i, seen[target - x]]", APPS_TESTS, "wrong_answer"),
        ("[i, seen[target - x]]", LCB_TESTS, "wrong_answer"),
        ("{seen[target - x], i}", APPS_TESTS, "wrong_answer"),  # a set: no JSON value
    ],
)
def test_a_solution_class_method(grader: Grader, result: str, tests: object, status: str) -> None:
    assert grade(grader, TWO_SUM.replace("RESULT", result), tests)[0] == status


def test_apps_unwraps_the_expected_list_and_livecodebench_does_not(grader: Grader) -> None:
    add = "def add(a, b):\n    return a + b\n"
    apps = {"fn_name": "add", "inputs": [[1, 2]], "outputs": [[3]]}
    lcb = [{"input": "1\n2", "output": "[3]", "testtype": "functional",
            "metadata": {"func_name": "add"}}]  # fmt: skip
    assert grade(grader, add, apps) == ("ok", "")
    assert grade(grader, add, lcb) == ("wrong_answer", "returned 3, expected [3]")


def test_what_the_completion_prints_is_not_its_value(grader: Grader) -> None:
    noisy = "import sys\ndef f(x):\n    print(x + 1)\n    sys.stdout.write('7')\n    return x\n"
    assert grade(grader, noisy, {"fn_name": "f", "inputs": [[7]], "outputs": [[7]]})[0] == "ok"
    assert grade(grader, noisy, {"fn_name": "f", "inputs": [[7]], "outputs": [[8]]})[0] == (
        "wrong_answer"
    )


@pytest.mark.parametrize(
    ("code", "status", "message"),
    [
        ("def g(x):\n    return x\n", "runtime_error", "defines no function f"),
        ("def f(x):\n    return 1 // 0\n", "runtime_error", "ZeroDivisionError"),
        ("import os\ndef f(x):\n    os._exit(0)\n", "wrong_answer", "returned nothing"),
        ("def f(x):\n    while True: pass\n", "timeout", ""),
        ("def f(x:\n    return x\n", "syntax_error", ""),
    ],
)
def test_a_function_that_fails(grader: Grader, code: str, status: str, message: str) -> None:
    got = grade(grader, code, {"fn_name": "f", "inputs": [[1]], "outputs": [[1]]})
    assert got[0] == status
    assert message in got[1]


def test_string_keys_of_a_first_dict_argument_are_numbers_again(grader: Grader) -> None:
    code = "def f(d):\n    return sum(k * v for k, v in d.items())\n"
    assert grade(grader, code, {"fn_name": "f", "inputs": [[{"2": 3}]], "outputs": [[6]]})[0] == (
        "ok"
    )


def test_the_expected_value_never_enters_the_sandbox() -> None:
    secret = 987654321
    program = harness("def f():\n    return 1\n", Call("f"))
    assert str(secret) not in program  # the program run knows only the code and the name
    assert difference(f"\n\x1ecallbased-result\x1e {secret}\n", expected_text(secret, EXACT)) is None


def test_only_the_last_result_line_counts() -> None:
    mark = "\x1ecallbased-result\x1e "
    out = f"{mark}5\n{mark}6\n"
    assert difference(out, expected_text(6, APPS)) is None
    assert difference(out, expected_text(5, APPS)) == "returned 6, expected 5"
    assert difference("", expected_text(5, APPS)) is not None
    assert difference(f"{mark}{{\n", json.dumps({"rule": APPS, "value": 5})) is not None


def test_a_cpp_program_cannot_answer_call_based_tests(grader: Grader) -> None:
    suite = suite_of({"fn_name": "f", "inputs": [[1]], "outputs": [[1]]})
    got = grader.grade_tests(suite.tests, 2.0, "int main(){}", "cpp", suite.call)
    assert (got.reward, got.status) == (0.0, "no_code")
    assert "Python function" in got.message
