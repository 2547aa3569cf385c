"""model.bounds: the ranges a statement states, in the notations statements use."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from problemtools_py.model.bounds import Range, base, number, stated_bounds

R = Range


@pytest.mark.parametrize(("text", "expected"), [
    ("Given $1 \\le n \\le 2 \\cdot 10^5$", {"n": R(1, 200000)}),
    ("($1 \\le n, m \\le 100\\,000$)", {"n": R(1, 100000), "m": R(1, 100000)}),
    ("1 ≤ a_i ≤ 10^{9}", {"a_i": R(1, 1e9)}),
    ("-10^9 <= x_{i} <= 10^9", {"x_i": R(-1e9, 1e9)}),
    ("$2 \\leq n \\leq 2^{31}-1$", {"n": R(2, 2**31 - 1)}),
    ("modulo 10^9+7, and 1 ≤ t ≤ 10^4", {"t": R(1, 10000)}),
    ("$n \\geq 1$ and $n \\le 1,000$", {"n": R(1, 1000)}),
    ("$|s| \\le 100$", {"|s|": R(None, 100)}),
    ("$10 > q \\ge 0$", {"q": R(0, 10, high_strict=True)}),
    ("$0 \\leq k < 100$", {"k": R(0, 100, high_strict=True)}),
    ("k < n", {}),
    ("$1 \\le n \\le 10$ (subtask 1), $1 \\le n \\le 10^5$", {"n": R(1, 100000)}),
    ("$1 \\le \\mathrm{cost} \\le 50$", {"cost": R(1, 50)}),
    ("1 &lt;= n &lt;= 7", {"n": R(1, 7)}),
])  # fmt: skip
def test_stated_bounds(text: str, expected: dict[str, Range]) -> None:
    assert stated_bounds(text) == expected


@pytest.mark.parametrize(("text", "value"), [
    ("1,000", 1000), ("2*10^4", 20000), ("10^9+7", 1e9 + 7), ("2^31-1", 2**31 - 1),
    ("-5", -5), ("0.5", 0.5), ("abc", None),
])  # fmt: skip
def test_number(text: str, value: float | None) -> None:
    assert number(text) == value


def test_base_drops_the_subscript() -> None:
    assert (base("a_i"), base("|s_i|"), base("n")) == ("a", "|s|", "n")


def test_int_ends_and_contains() -> None:
    said = R(0, 10, low_strict=True, high_strict=True)
    assert said.int_ends() == (1, 9)
    assert said.contains(5) and not said.contains(0) and not said.contains(10)


LESS = ["\\le", "\\leq", "≤", "<=", "\\leqslant"]


@given(st.integers(-10**6, 10**6), st.integers(0, 10**6), st.sampled_from(LESS),
       st.sampled_from(LESS), st.sampled_from(["n", "m_i", "x_{j}", "cnt"]))  # fmt: skip
def test_a_written_range_reads_back(low: int, span: int, one: str, two: str, name: str) -> None:
    high = low + span
    text = f"It holds that ${low} {one} {name} {two} {high}$."
    key = name.replace("{", "").replace("}", "")
    assert stated_bounds(text) == {key: R(low, high)}


def test_a_longer_chain_bounds_each_name() -> None:
    assert stated_bounds("$1 \\le k \\le n \\le 100$") == {"k": R(1, 100), "n": R(1, 100)}
    assert stated_bounds("$0 < a < b \\le 10$") == {
        "a": R(0, 10, True, True), "b": R(0, 10, True, False)}
