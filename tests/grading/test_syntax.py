"""grading/syntax.py: the compile check in a helper process says what compiling in the
grader's own process said (the reference: compile() as python3 reads a file), starts
again after its helper dies, and never holds the grader's interpreter; a grader asks it
only after a first test that ended in an error, with the same results."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file
from problemtools_py.dataset.schema import tests_json as encode_tests
from problemtools_py.dataset.writer import RowWriter
from problemtools_py.grading import Grader
from problemtools_py.grading.results import GradeResult, Settings, Status
from problemtools_py.grading.syntax import SyntaxCheck
from problemtools_py.judge import python2

SOURCES = [
    "print(input())\n",
    "def f(:\n    pass\n",
    "print 'hello'\n",
    "x = 1\x00\n",
    "\ufeffprint(1)\n",
    "# -*- coding: latin-1 -*-\nprint('caf\u00e9')\n",
    "x = " + "(" * 300 + "1" + ")" * 300 + "\n",
    "if True:\n  x = 1\n    y = 2\n",
    "f'{'\n",
]


def in_process(code: str) -> str | None:
    try:
        compile(code.encode("utf-8"), "main.py", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.fixture(scope="module")
def check() -> Iterator[SyntaxCheck]:
    checker = SyntaxCheck()
    yield checker
    checker.close()


@pytest.mark.parametrize("code", SOURCES)
def test_the_helper_says_what_compile_says(check: SyntaxCheck, code: str) -> None:
    assert check.error(code) == in_process(code)


@given(st.text(max_size=80))
@settings(max_examples=150, deadline=None)
def test_any_text_the_same_as_compile(check: SyntaxCheck, code: str) -> None:
    assert check.error(code) == in_process(code)


def test_a_dead_helper_is_started_again(check: SyntaxCheck) -> None:
    assert check.error("x = 1\n") is None
    assert check._helper is not None
    check._helper.kill()
    check._helper.wait()
    assert check.error("def f(:\n") == in_process("def f(:\n")


def test_another_thread_runs_while_it_compiles(check: SyntaxCheck) -> None:
    """Counted, not timed: while a large program compiles in the helper, a thread of the
    grader's keeps running (in the grader's own process it could not take a step)."""
    big = "x = [" + "1, " * 80_000 + "]\n"
    steps = [0]
    done = threading.Event()

    def count() -> None:
        while not done.is_set():
            steps[0] += 1
            time.sleep(0)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        before = steps[0]
        assert check.error(big) is None
        during = steps[0] - before
    finally:
        done.set()
        counter.join()
    assert during > 100, during


# Through a grader (issue 61): its tests run before the compile check, which it asks only
# after a first test that ended in an error; the result is what the check before the run
# gave (the reference: SyntaxCheck.error of the same code, the helper's own verdict).
@pytest.fixture(scope="module")
def grader(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Grader]:
    root = tmp_path_factory.mktemp("syntax")
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        writer.add({"problem_id": PID, "statement": STATEMENT, "time_limit_s": 1.0,
                    "tests_json": encode_tests([("5\n", "5\n"), ("7\n", "7\n")]),
                    "origin_json": origin_json({})})  # fmt: skip
    with Grader(root, Settings(retries=0), jobs=1) as found:
        yield found


STATEMENT = "Print the input back."
PID = problem_id(STATEMENT)


@pytest.mark.parametrize("code", SOURCES)
def test_a_grader_says_what_the_check_before_the_run_said(
    grader: Grader, check: SyntaxCheck, code: str
) -> None:
    result = grader.grade(PID, f"```python\n{code}```")
    why = check.error(code)
    if why is not None:
        assert result.status is Status.SYNTAX_ERROR
        assert result == GradeResult(0.0, Status.SYNTAX_ERROR, message=python2.named(why)[:300])
    else:
        assert result.status is not Status.SYNTAX_ERROR


def test_a_program_that_passes_or_answers_wrong_never_asks_the_helper(grader: Grader) -> None:
    grader._syntax.close()
    for program in ("print(input())\n", "print(6)\n"):
        assert grader.grade(PID, f"```python\n{program}```").status in (
            Status.OK,
            Status.WRONG_ANSWER,
        )
    assert grader._syntax._helper is None
    crash = grader.grade(PID, "```python\nraise SystemExit(3)\n```")
    assert crash.status is Status.RUNTIME_ERROR and grader._syntax._helper is not None
