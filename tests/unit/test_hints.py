"""The "did you mean" hint: the closest known word above the cutoff, or none."""

from __future__ import annotations

import pytest

from problemtools_py.hints import closest


@pytest.mark.parametrize(
    ("word", "known", "cutoff", "expected"),
    [
        ("acepted", ["accepted", "wrong_answer"], 0.6, "accepted"),
        ("time_limit_exceded", {"time_limit_exceeded", "run_time_error"}, 0.7,
         "time_limit_exceeded"),
        ("xyz", ["accepted", "wrong_answer"], 0.6, None),
        ("acc", ["accepted"], 0.9, None),  # close, but under the cutoff
        ("ab", frozenset({"ac", "bb"}), 0.5, "bb"),  # a tie: the same answer every run
        ("anything", [], 0.6, None),
    ],
)
def test_closest(word: str, known: list[str], cutoff: float, expected: str | None) -> None:
    assert closest(word, known, cutoff) == expected
