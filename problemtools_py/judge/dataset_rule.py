#!/usr/bin/env python3
"""The competitive-code-curated dataset's comparator, standard library only.

Split both texts on whitespace; the token counts must be equal; tokens match when
identical; an expected ``yes``/``no`` (any case) matches the same word in any case; an
expected integer (no ``.``, ``e``, ``E``) matches the same string or a decimal whose value
is exactly that integer (``2.000`` for ``2``); an expected decimal (with ``.``, ``e`` or
``E``, a finite float) matches a finite float within ``math.isclose(rel_tol=1e-6,
abs_tol=1e-6)``; any other token must be identical.

This file is also a complete Kattis output validator (``parquet2kattis`` copies it into
every package it writes): ``dataset_rule.py input answer feedback_dir/ < output`` exits 42
when the output matches the answer, 43 otherwise, with the first difference in
``judgemessage.txt``."""

from __future__ import annotations

import math
import os
import re
import sys
from decimal import Decimal, InvalidOperation

_INTEGER = re.compile(r"[+-]?\d+\Z")


def _finite_float(text: str) -> float | None:
    try:
        value = float(text)
    except (ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def token_matches(out: str, expected: str) -> bool:
    """One token, by the dataset's rule."""
    if out == expected:
        return True
    if expected.lower() in ("yes", "no"):
        return out.lower() == expected.lower()
    if not any(c in expected for c in ".eE"):
        if not _INTEGER.match(expected) or not any(c in out for c in ".eE"):
            return False
        try:  # exact, for integers of any length (int() refuses over 4,300 digits)
            value = Decimal(out)
            return value.is_finite() and value == Decimal(expected)
        except (InvalidOperation, ValueError, OverflowError):
            return False
    exp_value = _finite_float(expected)
    if exp_value is None:
        return False
    got = _finite_float(out)
    return got is not None and math.isclose(got, exp_value, rel_tol=1e-6, abs_tol=1e-6)


def first_difference(output: str, expected: str) -> tuple[int, str] | None:
    """None when ``output`` matches ``expected``; else the token index and why not."""
    if output == expected:  # the common case, without looking at tokens
        return None
    out_tokens, exp_tokens = output.split(), expected.split()
    if len(out_tokens) != len(exp_tokens):
        return min(
            len(out_tokens), len(exp_tokens)
        ), f"{len(out_tokens)} tokens, expected {len(exp_tokens)}"
    if out_tokens == exp_tokens:  # identical tokens match; only differing ones need the rule
        return None
    for index, (o, e) in enumerate(zip(out_tokens, exp_tokens)):  # noqa: B905 - old Pythons too
        if not token_matches(o, e):
            return index, f"token {index + 1}: got {o[:30]!r}, expected {e[:30]!r}"
    return None


def main(argv: list[str]) -> int:
    """The output-validator entry point."""
    _input, answer, feedback_dir = argv[1:4]
    with open(answer, "rb") as handle:
        expected = handle.read().decode("utf-8", "replace")
    output = sys.stdin.buffer.read().decode("utf-8", "replace")
    difference = first_difference(output, expected)
    if difference is None:
        return 42
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "a", encoding="utf-8") as handle:
        handle.write(difference[1] + "\n")
    return 43


if __name__ == "__main__":
    sys.exit(main(sys.argv))
