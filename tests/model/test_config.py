"""model/config.py: a ``type`` of several types in one string (spaced_types); the types
each version reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from problemtools_py.model.config import build_config, spaced_types
from problemtools_py.yamlfile import parse_yaml


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


@pytest.mark.parametrize(
    ("text", "modern", "types"),
    [
        ("type: interactive\n", False, {"pass-fail"}),  # (not a legacy type: the check says so)
        ("type: [scoring, multi-pass]\n", False, {"scoring"}),
        ("type: scoring\nvalidation: custom interactive\n", False, {"scoring", "interactive"}),
        ("type: interactive\n", True, {"interactive"}),
        ("type: [scoring, multi-pass]\n", True, {"scoring", "multi-pass"}),
    ],
)
def test_types_a_version_knows(text: str, modern: bool, types: set[str]) -> None:
    # (a legacy package that said type: interactive was judged as interactive with no
    # output validator: an internal error)
    config = build_config(parse_yaml(text, Path("problem.yaml"), "problem.yaml"), modern)
    assert config.types == types
