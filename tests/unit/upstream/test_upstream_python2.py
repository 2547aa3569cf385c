"""Python 2 references made Python 3 by 2to3, never run to be converted."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from problemtools_py.upstream.python2 import to_python3


def test_python2_becomes_python3() -> None:
    code = "n = int(raw_input())\nprint n * 2\nfor i in xrange(2): print i,\n"
    got = to_python3(code)
    assert got == "n = int(input())\nprint(n * 2)\nfor i in range(2): print(i, end=' ')\n"
    compile(got, "<converted>", "exec")


def test_what_2to3_cannot_parse_is_left_out() -> None:
    assert to_python3("def (:\n") is None
    assert to_python3("x" * (2 << 20)) is None


def test_python3_stays_python3_doing_the_same() -> None:
    code = "print(sum(map(int, input().split())))\n"
    assert to_python3(code) == "print((sum(map(int, input().split()))))\n"  # (2to3's way)


@given(st.text(max_size=200))
def test_any_text_converts_or_is_left_out(text: str) -> None:
    got = to_python3(text)
    assert got is None or isinstance(got, str)
