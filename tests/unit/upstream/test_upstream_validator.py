"""What an imported problem's input validator checks, read from its statement and tests."""

from __future__ import annotations

from problemtools_py.upstream.validator import rules

BOUNDED = "Given two integers $a$ and $b$ ($1 \\le a, b \\le 10^9$), print their sum."


def test_the_rules_of_a_bounded_statement() -> None:
    found = rules(BOUNDED, ["1 2\n", "1000000000 7\n"])
    assert found == {"newline_end": True, "plain": True, "single_spaces": True,
                     "first_line": ["int", "int"], "least": 1, "most": 1000000000}  # fmt: skip


def test_what_the_tests_do_not_agree_on_is_not_checked() -> None:
    found = rules(BOUNDED, ["1 2\n", "3\n4  5", "6 7\r\n"])
    assert found is not None
    assert (found["newline_end"], found["plain"], found["single_spaces"]) == (False, False, False)
    assert found["first_line"] is None


def test_no_validator_without_bounds_or_against_a_test() -> None:
    assert rules("Print the sum of two numbers.", ["1 2\n"]) is None
    assert rules(BOUNDED, ["0 5\n"]) is None  # (a test below the bounds: read wrong)
    assert rules(BOUNDED, ["9" * 5000 + "\n"]) is None  # (no crash on a huge number)
    assert rules(BOUNDED, []) is None


def test_an_absolute_bound_is_read_as_fresh_inputs_read_it() -> None:
    found = rules("Each $|a_i| \\le 100$.", ["-100 7\n"])
    assert found is not None and (found["least"], found["most"]) == (-100, 100)
    assert rules("Each $|a_i| \\le 100$.", ["-101 7\n"]) is None
