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


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", "0", "-3", "true", "'2'", "[1]"])
def test_a_limit_the_format_does_not_allow_reads_as_its_default(value: str) -> None:
    # (each crashed a verification: int(inf), int(nan), a division by a 0 resolution, or a
    # multi-pass problem of 0 passes)
    keys = ("time_limit", "time_resolution", "memory", "output", "validation_time",
            "validation_passes")  # fmt: skip
    text = "limits:\n" + "".join(f"  {k}: {value}\n" for k in keys)
    text += f"  time_multipliers: {{ac_to_time_limit: {value}, time_limit_to_tle: {value}}}\n"
    limits = build_config(parse_yaml(text, Path("problem.yaml"), "problem.yaml"), True).limits
    assert limits == build_config(parse_yaml("{}", Path("p"), "p"), True).limits


def test_limits_at_their_bounds_are_read() -> None:
    text = ("limits:\n  time_multipliers: {ac_to_time_limit: 1, time_limit_to_tle: 1}\n"
            "  validation_passes: 2\n  memory: 1\n  time_resolution: 0.001\n")  # fmt: skip
    limits = build_config(parse_yaml(text, Path("problem.yaml"), "problem.yaml"), True).limits
    assert (limits.time_multiplier, limits.time_safety_margin) == (1.0, 1.0)
    assert (limits.validation_passes, limits.memory_mib, limits.time_resolution) == (2, 1, 0.001)
