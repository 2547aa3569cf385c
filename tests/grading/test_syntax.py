"""grading/syntax.py: the compile check in a helper process says what compiling in the
grader's own process said (the reference: compile() as python3 reads a file), starts
again after its helper dies, and never holds the grader's interpreter."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.grading.syntax import SyntaxCheck

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
