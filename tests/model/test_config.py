"""model/config.py: a ``type`` of several types in one string (spaced_types)."""

from __future__ import annotations

import pytest

from problemtools_py.model.config import spaced_types


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("pass-fail interactive", ("pass-fail", "interactive")),
        ("scoring  multi-pass", ("scoring", "multi-pass")),
        ("pass-fail", None),  # one type: a valid value
        ("pass-fail chess", None),  # not all of them types
        (["pass-fail", "interactive"], None),  # a sequence: valid
        (None, None),
        (5, None),
    ],
)
def test_spaced_types(value: object, expected: tuple[str, ...] | None) -> None:
    assert spaced_types(value) == expected
