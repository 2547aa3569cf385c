"""The default output validator (a table from the format text, plus properties) and the
dataset comparator (its definition, token by token)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from problemtools_py.judge.comparators import (
    DefaultFlags,
    FlagError,
    dataset_compare,
    default_compare,
    parse_c_float,
)
from problemtools_py.judge.dataset_rule import token_matches

FT = ["float_tolerance", "1e-6"]
DEFAULT_TABLE = [
    # (team output, answer, flags, accepted)
    (b"42\n", b"42\n", [], True),
    (b"  42  \n\n", b"42\n", [], True),  # whitespace only separates tokens
    (b"Hello World", b"hello world\n", [], True),  # case-insensitive by default
    (b"Hello World", b"hello world\n", ["case_sensitive"], False),
    (b"a b", b"a b c", [], False),  # missing token
    (b"a b c", b"a b", [], False),  # trailing output
    (b"", b"", [], True),
    (b" \n\t", b"", [], True),  # empty answer, all-whitespace output
    (b"", b"x", [], False),
    (b"1.0", b"1", [], False),  # no tolerance: numbers are strings
    (b"3.14000000e-2", b"0.0314", FT, True),  # any float formatting with a tolerance
    (b"0.0314001", b"0.0314", ["float_absolute_tolerance", "1e-6"], True),
    (b"0.0314011", b"0.0314", ["float_absolute_tolerance", "1e-6"], False),
    (b"1000.0005", b"1000", ["float_relative_tolerance", "1e-6"], True),  # integer answer too
    (b"1000.0015", b"1000", ["float_relative_tolerance", "1e-6"], False),
    (b"1000.0015", b"1000", ["float_tolerance", "1e-2"], True),  # either tolerance
    (b"nan", b"1.5", FT, False),
    (b"inf", b"1.5", FT, False),
    (b"abc", b"1.5", FT, False),  # the answer is a number, the output is not
    (b"ABC", b"abc", FT, True),  # non-numeric tokens still compare as strings
    (b"0x1p-1", b"0.5", FT, True),  # C's strtod reads hex floats
    (b"1_0", b"10", FT, False),  # ...but not Python's digit separators
    (b"a  b\n", b"a b\n", ["space_change_sensitive"], False),
    (b"a b", b"a b\n", ["space_change_sensitive"], False),  # a missing final newline
    (b"a b\n\n", b"a b\n", ["space_change_sensitive"], False),
    (b"A b\n", b"a b\n", ["space_change_sensitive"], True),
    (b"1.0000001 x\n", b"1 x\n", ["space_change_sensitive", *FT], True),
]


@pytest.mark.parametrize(("team", "judge", "flags", "accepted"), DEFAULT_TABLE)
def test_default_validator_table(team: bytes, judge: bytes, flags: list[str], accepted: bool) -> None:
    result = default_compare(team, judge, DefaultFlags.parse(flags))
    assert result.accepted is accepted, result.message
    assert bool(result.message) is not accepted


def test_first_difference_is_named() -> None:
    result = default_compare(b"1 2 4 4\n", b"1 2 3 4\n")
    assert not result.accepted and result.judge_position == 2
    assert result.message == "token 3: got '4', expected '3'"


@pytest.mark.parametrize("flags", [["float_tolerance"], ["float_tolerance", "-1"],
                                   ["float_tolerance", "x"], ["ignore_case"]])
def test_bad_flags_are_judge_errors(flags: list[str]) -> None:
    with pytest.raises(FlagError):
        DefaultFlags.parse(flags)


def test_later_flags_win() -> None:
    flags = DefaultFlags.parse(["float_tolerance", "1", "float_absolute_tolerance", "2"])
    assert (flags.float_absolute, flags.float_relative) == (2.0, 1.0)


tokens = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=8)
token_lists = st.lists(tokens, max_size=20)
spaces = st.text(alphabet=" \t\n\r\v\f", min_size=1, max_size=3)


@given(token_lists, st.data())
def test_whitespace_does_not_matter_by_default(words: list[str], data: st.DataObject) -> None:
    seps = [data.draw(spaces) for _ in range(len(words) + 1)]
    spaced = seps[0] + "".join(w + s for w, s in zip(words, seps[1:], strict=True))
    assert default_compare(spaced.encode(), " ".join(words).encode()).accepted


@given(token_lists, tokens)
def test_an_extra_or_missing_token_is_wrong(words: list[str], extra: str) -> None:
    joined = " ".join(words).encode()
    longer = " ".join([*words, extra]).encode()
    assert not default_compare(longer, joined).accepted
    assert not default_compare(joined, longer).accepted


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False), st.floats(min_value=0, max_value=1))
def test_float_tolerance_is_absolute_or_relative(answer: float, shift: float) -> None:
    team = answer + shift
    flags = DefaultFlags.parse(["float_tolerance", "1e-3"])
    result = default_compare(repr(team).encode(), repr(answer).encode(), flags)
    diff = abs(float(repr(team)) - answer)
    assert result.accepted == (diff <= 1e-3 or diff <= 1e-3 * abs(answer))


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_c_float_parser_reads_python_reprs(value: float) -> None:
    parsed = parse_c_float(repr(value).encode())
    assert parsed == value if math.isfinite(value) else parsed is None


@given(st.text(max_size=200))
def test_default_compare_never_raises_and_is_reflexive(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    for flags in ([], FT, ["space_change_sensitive", "case_sensitive"]):
        assert default_compare(data, data, DefaultFlags.parse(flags)).accepted


# -- the dataset comparator ----------------------------------------------------------
DATASET_TABLE = [
    ("1 2 3", "1 2 3", True),
    ("1\n2\n3\n", "1 2 3", True),  # whitespace splits tokens
    ("1 2", "1 2 3", False),  # token counts must be equal
    ("YES", "yes", True), ("No", "NO", True), ("yes", "no", False), ("yes!", "yes", False),
    ("Yes", "Yes", True), ("YES", "Yess", False),
    ("2.000", "2", True), ("2.", "2", True), ("2e0", "2", True), ("-3.0", "-3", True),
    ("2.0000001", "2", False),  # equal to the integer exactly, not nearly
    ("+2", "2", False), ("02", "2", False),  # not the same string, and not a decimal
    ("2", "2.0", True), ("2.0000005", "2.0", True), ("2.00001", "2.0", False),
    ("1000000.5", "1000000.0", True),  # relative 1e-6
    ("nan", "1.5", False), ("inf", "1e400", False),  # the expected decimal must be finite
    ("abc", "abc", True), ("ABC", "abc", False),  # other tokens: identical
    ("1.5", "hello", False),
]


@pytest.mark.parametrize(("out", "expected", "matches"), DATASET_TABLE)
def test_dataset_comparator_definition(out: str, expected: str, matches: bool) -> None:
    assert dataset_compare(out, expected).accepted is matches


@given(st.integers(-(10**30), 10**30), st.integers(0, 6))
def test_dataset_integer_as_exact_decimal(value: int, zeros: int) -> None:
    decimal = f"{value}." + "0" * zeros
    assert token_matches(decimal, str(value))
    assert not token_matches(f"{value}.{'0' * zeros}1", str(value))


@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(allow_nan=False, allow_infinity=False))
def test_dataset_decimals_are_isclose(a: float, b: float) -> None:
    expected = repr(b) if any(c in repr(b) for c in ".eE") else repr(b) + ".0"
    assert token_matches(repr(a), expected) == math.isclose(
        a, float(expected), rel_tol=1e-6, abs_tol=1e-6)


@given(st.text(max_size=100))
def test_dataset_compare_is_reflexive(text: str) -> None:
    assert dataset_compare(text, text).accepted
