"""judge/dataset_rule.py never raises, whatever the output and the answer: numbers of any
size, odd floats, NaN and infinities, bytes that are not UTF-8 (decoded with
replacement, as the grader and the exported validator do)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.judge import dataset_rule
from problemtools_py.judge.dataset_rule import first_difference, token_matches

NUMBERISH = st.one_of(
    st.tuples(st.sampled_from(["", "-", "+"]), st.text("0123456789", min_size=1, max_size=6000),
              st.sampled_from(["", ".0", ".000", "e0", ".5"])).map("".join),  # any length
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["nan", "-inf", "Infinity", "sNaN", "1e999999999999999999", "1_000", "+.5",
                     "0x10", "1e", ".", "-", "١٢٣", "9" * 5000 + ".0", "1" * 5000 + "e-4999"]),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "replace")),
)


@settings(max_examples=300, deadline=None)
@given(NUMBERISH, NUMBERISH)
def test_tokens_never_raise(out: str, expected: str) -> None:
    assert isinstance(token_matches(out, expected), bool)
    first_difference(f"{out} x\n", f"{expected} x\n")


def test_integers_of_any_length_compare_exactly() -> None:
    huge = "9" * 5071
    assert token_matches(huge + ".000", huge)
    assert not token_matches("1.0", huge)
    assert not token_matches(huge[:-1] + "8.0", huge)
    assert token_matches("-" + huge + "e0", "-" + huge)


def test_the_exported_validator_does_not_crash_on_them(tmp_path: Path) -> None:
    (tmp_path / "ans").write_text("9" * 5071 + "\n")
    (tmp_path / "in").write_text("")
    feedback = tmp_path / "fb"
    feedback.mkdir()
    done = subprocess.run([sys.executable, dataset_rule.__file__, str(tmp_path / "in"),
                           str(tmp_path / "ans"), str(feedback)], input=b"1.0\n",
                          capture_output=True, check=False)
    assert done.returncode == 43, done.stderr
    assert "token 1" in (feedback / "judgemessage.txt").read_text()
