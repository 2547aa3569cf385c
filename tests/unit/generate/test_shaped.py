"""generate.shaped: random inputs shaped as a row's tests, within its statement's bounds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.generate.shaped import ShapedFuzzer, roles

ARRAY = "Given $n$ ($1 \\le n \\le 50$) and $a_i$ ($-10^9 \\le a_i \\le 10^9$)."


def _array(values: list[int]) -> str:
    return f"{len(values)}\n{' '.join(map(str, values))}\n"


def _rows(rows: list[list[int]]) -> str:
    return f"{len(rows)} {len(rows[0])}\n" + "".join(" ".join(map(str, r)) + "\n" for r in rows)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(-50, 50), min_size=2, max_size=8), min_size=2, max_size=4),
       st.integers(0, 2**32))  # fmt: skip
def test_an_array_keeps_its_count_and_bounds(arrays: list[list[int]], seed: int) -> None:
    fuzzer = ShapedFuzzer([_array(a) for a in arrays], ARRAY, seed)
    for _ in range(5):
        head, values = fuzzer.fresh().split("\n")[:2]
        assert 1 <= int(head) <= 50 and len(values.split()) == int(head)
        assert all(-(10**9) <= int(v) <= 10**9 for v in values.split())


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(2, 3), st.integers(0, 2**32))
def test_rows_under_a_count_keep_the_width_they_are_given(n: int, m: int, seed: int) -> None:
    tests = [_rows([[i + j for j in range(m)] for i in range(n)]),
             _rows([[1] * (m + 1) for _ in range(n + 1)])]  # fmt: skip
    fuzzer = ShapedFuzzer(tests, "$1 \\le n, m \\le 20$ and $0 \\le a_{i,j} \\le 9$", seed)
    for _ in range(5):
        lines = fuzzer.fresh().splitlines()
        rows, width = map(int, lines[0].split())
        assert len(lines) == rows + 1 and all(len(x.split()) == width for x in lines[1:])


def test_the_same_seed_gives_the_same_inputs() -> None:
    tests = [_array([1, 2, 3]), _array([5])]
    one, two = ShapedFuzzer(tests, ARRAY, 7), ShapedFuzzer(tests, ARRAY, 7)
    assert [one.fresh() for _ in range(20)] == [two.fresh() for _ in range(20)]
    assert len({ShapedFuzzer(tests, ARRAY, s).fresh() for s in range(20)}) > 5


def test_values_reach_the_ends_the_statement_states() -> None:
    fuzzer = ShapedFuzzer([_array([1, 2]), _array([3, 4, 5])], ARRAY, 1)
    values = {int(v) for _ in range(50) for v in fuzzer.fresh().split("\n")[1].split()}
    assert {10**9, -(10**9)} <= values


def test_without_bounds_values_stay_within_those_seen() -> None:
    fuzzer = ShapedFuzzer([_array([3, 9]), _array([4, 7, 5])], "", 1)
    values = {int(v) for _ in range(50) for v in fuzzer.fresh().split("\n")[1].split()}
    assert values <= set(range(3, 10))


def test_a_count_of_test_cases_is_kept() -> None:
    tests = ["2\n3\n1 2 3\n1\n5\n", "1\n2\n4 4\n"]
    fuzzer = ShapedFuzzer(tests, "$1 \\le t \\le 10^4$", 3)
    assert {fuzzer.fresh().split("\n")[0] for _ in range(20)} <= {"1", "2"}


def test_a_token_is_structural_only_as_every_test_has_it() -> None:
    # "1 / 0" alone reads as one line counted; beside "2 / 1 2" the 1 counts tokens.
    assert roles("1\n0\n")[0][1] == [{"lines", "width", "fixed"}]
    fuzzer = ShapedFuzzer(["1\n0\n", _array([1, 2]), _array([3] * 10)], ARRAY, 2)
    for _ in range(20):
        assert len(fuzzer.fresh().splitlines()) == 2


def test_words_keep_their_length_and_alphabet() -> None:
    fuzzer = ShapedFuzzer(["abba\n", "baab\n", "aab\n"], "$1 \\le |s| \\le 100$", 5)
    words = [fuzzer.fresh().strip() for _ in range(20)]
    assert all(set(w) <= {"a", "b"} and len(w) in (3, 4) for w in words)


def test_values_outside_every_stated_bound_are_named() -> None:
    fuzzer = ShapedFuzzer([], "$1 \\le n \\le 100$, $1 \\le a_i \\le 10^9$", 0)
    tests = [_array([5, 7]), _array([10**12]), "0\n\n"]
    assert fuzzer.bounds_broken(tests) == [(1, str(10**12)), (2, "0")]
    assert ShapedFuzzer([], "no bounds here", 0).bounds_broken(tests) == []


def test_an_absolute_bound_is_a_range_around_zero() -> None:
    fuzzer = ShapedFuzzer([_array([1, -2]), _array([3])], "$|a_i| \\le 10^6$", 4)
    values = {int(v) for _ in range(60) for v in fuzzer.fresh().split("\n")[1].split()}
    assert {10**6, -(10**6)} <= values and all(abs(v) <= 10**6 for v in values)


def test_a_number_of_thousands_of_digits_breaks_the_bounds_without_a_crash() -> None:
    fuzzer = ShapedFuzzer(["1\n"], "Here $1 \\le n \\le 10^9$.", 0)
    huge = "9" * 5000
    assert fuzzer.bounds_broken(["5\n", f"{huge}\n"]) == [(1, "9" * 37 + "...")]
