"""In-process output comparison: the format's default output validator and the
competitive-code-curated dataset's comparator. No process is started per comparison."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

_WS = rb" \t\n\v\f\r"
_SPLIT_WS = re.compile(rb"([ \t\n\v\f\r]+)")
# What C's strtod accepts as a whole token (decimal, hex, inf, nan), as problemtools'
# sscanf("%lf") does; the value must then be finite.
_C_FLOAT = re.compile(
    rb"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
    rb"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?"
    rb"|inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)\Z",
    re.IGNORECASE,
)


class FlagError(ValueError):
    """Flags the default validator does not understand: a judge error, never the team's."""


@dataclass(frozen=True)
class DefaultFlags:
    """The default output validator's flags: case, space and float tolerance."""

    case_sensitive: bool = False
    space_change_sensitive: bool = False
    float_absolute: float | None = None
    float_relative: float | None = None

    @property
    def floats(self) -> bool:
        return self.float_absolute is not None or self.float_relative is not None

    @classmethod
    def parse(cls, args: Sequence[str]) -> DefaultFlags:
        """Parse validator flags; later flags win, as in problemtools."""
        case = space = False
        absolute = relative = None
        words = list(args)
        i = 0
        while i < len(words):
            flag = words[i]
            if flag == "case_sensitive":
                case = True
            elif flag == "space_change_sensitive":
                space = True
            elif flag in (
                "float_tolerance",
                "float_absolute_tolerance",
                "float_relative_tolerance",
            ):
                value = _tolerance(flag, words[i + 1] if i + 1 < len(words) else None)
                i += 1
                if flag != "float_relative_tolerance":
                    absolute = value
                if flag != "float_absolute_tolerance":
                    relative = value
            else:
                raise FlagError(f"unknown flag '{flag}' for the default output validator")
            i += 1
        return cls(case, space, absolute, relative)


def _tolerance(flag: str, text: str | None) -> float:
    try:
        value = float(text) if text is not None else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise FlagError(f"{flag} needs a non-negative number, got {text!r}")
    return value


@dataclass(frozen=True)
class Comparison:
    """The default comparison of an output with the answer: accepted, or where it differs."""

    accepted: bool
    message: str = ""  # for judgemessage.txt: where the first difference is
    judge_position: int = 0  # token index of the first difference (diffposition.txt)
    team_position: int = 0


def parse_c_float(token: bytes) -> float | None:
    """The finite value of a token strtod would read whole, else None."""
    if not _C_FLOAT.match(token):
        return None
    text = token.decode("ascii").lower()
    try:
        value = float.fromhex(text) if "x" in text else float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _show(token: bytes) -> str:
    text = token[:30].decode("utf-8", "replace")
    return repr(text + ("..." if len(token) > 30 else ""))


def _token_diff(team: bytes, judge: bytes, flags: DefaultFlags) -> str | None:
    """Why two tokens differ, or None when they match."""
    if flags.floats:
        expected = parse_c_float(judge)
        if expected is not None:
            got = parse_c_float(team)
            if got is None:
                return f"expected a number near {_show(judge)}, got {_show(team)}"
            diff = abs(got - expected)
            if flags.float_absolute is not None and diff <= flags.float_absolute:
                return None
            if flags.float_relative is not None and diff <= flags.float_relative * abs(expected):
                return None
            return f"number {_show(team)} is too far from {_show(judge)} (difference {diff:g})"
    same = team == judge if flags.case_sensitive else team.lower() == judge.lower()
    return None if same else f"got {_show(team)}, expected {_show(judge)}"


def default_compare(team: bytes, judge: bytes, flags: DefaultFlags = DefaultFlags()) -> Comparison:
    """The default output validator of the problem format."""
    if team == judge:
        return Comparison(True)
    if flags.space_change_sensitive:
        return _compare_spaced(team, judge, flags)
    t_tokens, j_tokens = team.split(), judge.split()
    if t_tokens == j_tokens or (
        not flags.case_sensitive and team.lower().split() == judge.lower().split()
    ):
        return Comparison(True)  # equal as strings is equal under every flag
    for index, (t, j) in enumerate(zip(t_tokens, j_tokens, strict=False)):
        if t != j and (why := _token_diff(t, j, flags)) is not None:
            return Comparison(False, f"token {index + 1}: {why}", index, index)
    if len(t_tokens) > len(j_tokens):
        n = len(j_tokens)
        return Comparison(False, f"trailing output after token {n}: {_show(t_tokens[n])}", n, n)
    if len(t_tokens) < len(j_tokens):
        n = len(t_tokens)
        return Comparison(
            False,
            f"user EOF after token {n}, while the answer continues with {_show(j_tokens[n])}",
            n,
            n,
        )
    return Comparison(True)


def _compare_spaced(team: bytes, judge: bytes, flags: DefaultFlags) -> Comparison:
    """space_change_sensitive: every whitespace run, leading and trailing ones included,
    must equal the answer's byte for byte."""
    t_parts, j_parts = _SPLIT_WS.split(team), _SPLIT_WS.split(judge)
    offset = 0
    for index, (t, j) in enumerate(zip(t_parts, j_parts, strict=False)):
        token = index // 2
        if index % 2 == 1 or not t or not j:  # whitespace, or an empty edge token
            if t != j:
                return Comparison(
                    False,
                    f"whitespace differs at byte {offset}: got {t!r}, expected {j!r}",
                    token,
                    token,
                )
        elif (why := _token_diff(t, j, flags)) is not None:
            return Comparison(False, f"token {token + 1}: {why}", token, token)
        offset += len(t)
    if len(t_parts) != len(j_parts):
        n = min(len(t_parts), len(j_parts)) // 2
        what = "trailing output" if len(t_parts) > len(j_parts) else "user EOF"
        return Comparison(False, f"{what} at byte {offset}", n, n)
    return Comparison(True)


# -- the competitive-code-curated dataset's comparator (one source: dataset_rule.py) --


def dataset_compare(output: str, expected: str) -> Comparison:
    """Split both on whitespace; equal token counts; every token matches
    (:func:`problemtools_py.judge.dataset_rule.token_matches`)."""
    from problemtools_py.judge.dataset_rule import first_difference  # (decimal: ~3 ms)

    difference = first_difference(output, expected)
    if difference is None:
        return Comparison(True)
    index, why = difference
    return Comparison(False, why, index, index)
