"""What a lean init makes ready once for its program's runs (the parts that need no jail)."""

from __future__ import annotations

import re

import pytest

from problemtools_py.sandbox import inprocess

SOURCE = '''
import re
PLAIN = "hello world"
LONG = "[" + "a" * 300 + "]"


def check(line):
    return re.fullmatch(r"[0-9]{1,13}", line) and re.match(rb"\\d+\\n", b"1\\n")


class Reader:
    def parse(self):
        return re.split("[ \\t]+", "a b")
'''


def _cached(text: str | bytes) -> bool:
    return any(key[1] == text for key in re._cache)  # type: ignore[attr-defined]


def test_pattern_constants_are_short_texts_with_a_special_character() -> None:
    code = compile(SOURCE, "main.py", "exec")
    found = inprocess.pattern_constants(code)
    assert set(found) == {r"[0-9]{1,13}", rb"\d+\n", "[ \t]+"}


def test_at_most_max_patterns_are_taken() -> None:
    lines = [f"x{i} = '[{i}]+'" for i in range(inprocess.MAX_PATTERNS * 2)]
    code = compile("\n".join(lines), "main.py", "exec")
    assert len(inprocess.pattern_constants(code)) == inprocess.MAX_PATTERNS


def test_the_patterns_are_compiled_into_res_own_cache() -> None:
    re.purge()
    kept = inprocess.precompile_patterns(compile(SOURCE, "main.py", "exec"))
    assert set(kept) == {r"[0-9]{1,13}", rb"\d+\n", "[ \t]+"}
    assert _cached(r"[0-9]{1,13}") and _cached(rb"\d+\n")
    assert not _cached("hello world")


def test_a_pattern_that_warns_or_fails_is_left_to_the_program() -> None:
    """Its warning is the run's to print (a FutureWarning here): compiled in the init,
    the run would find it cached and print nothing. Nothing escapes the init either (the
    suite turns warnings into errors)."""
    re.purge()
    code = compile("a = '[[a]'\nb = '(unclosed'\nc = 'x+'", "main.py", "exec")
    assert inprocess.precompile_patterns(code) == ["x+"]
    assert _cached("x+") and not _cached("[[a]") and not _cached("(unclosed")


def test_patterns_that_may_compile_slowly_are_left_to_the_program() -> None:
    """No run pays for the init's CPU: only ASCII text without wide escapes (a
    case-insensitive class of Unicode ranges compiles for milliseconds)."""
    source = "a = r'(?i)[\\u0100-\\uffff]+'\nb = '[é]+'\nc = r'\\N{DASH}+'\nd = rb'[\\xff]+'"
    code = compile(source, "main.py", "exec")
    assert inprocess.pattern_constants(code) == [rb"[\xff]+"]


def test_no_pattern_is_compiled_past_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inprocess, "PATTERN_SECONDS", 0.0)
    re.purge()
    code = compile("a = 'x+'\nb = 'y+'\nc = 'z+'", "main.py", "exec")
    assert inprocess.precompile_patterns(code) == ["x+"]  # (the first always)
