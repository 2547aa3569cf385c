"""The bounds a statement states for its values: ``$1 \\le n, m \\le 2 \\cdot 10^5$``,
``1 ≤ a_i ≤ 10^9``, ``$|s| \\le 100$``, ``0 <= k < n`` (LaTeX, Unicode or ASCII
relations; ``10^{9}``, ``2^{31}-1``, ``100\\,000``, ``1,000`` and ``10^9+7`` as numbers).
A name's subscript is kept (``a_i``); :func:`base` drops it. A chain bounds every name
in it; a name bounded in several places (a subtask's smaller limits) gets the widest
range stated on each side: the whole problem's. Read by verifyproblem's constraint coverage and by
auditdata, which fuzzes a dataset row's inputs within these bounds."""

from __future__ import annotations

import re
from dataclasses import dataclass

# What the text is reduced to before the chains are read: one relation sign each.
_SPACES = re.compile(r"\\[,;:! ]|~|\\q?quad|\\thinspace|\u2009|\u202f|\u00a0")
_LESS_EQ = re.compile(r"\\leq?slant|\\leq?(?![a-z])|≤|⩽|<=")
_MORE_EQ = re.compile(r"\\geq?slant|\\geq?(?![a-z])|≥|⩾|>=")
_LESS = re.compile(r"\\lt(?![a-z])")
_MORE = re.compile(r"\\gt(?![a-z])")
_TIMES = re.compile(r"\\cdot|\\times|\u00b7|\u00d7|\u22c5|\*")
_WRAP = re.compile(r"\\(?:mathrm|mathit|text|textit|texttt|operatorname|mathbf)\{([^{}]*)\}")
_BRACED = re.compile(r"\^\{([^{}]*)\}|_\{([^{}]*)\}")

_POWER = r"\d+\^-?\d+"
_PLAIN = r"\d{1,3}(?:,\d{3})+(?![\d,])|\d+(?:\.\d+)?"
_NUMBER = (rf"-?\s*(?:(?:{_PLAIN})\s*\*\s*{_POWER}|{_POWER}|{_PLAIN})"
           r"(?:\s*[-+]\s*\d+(?![\d^.]))?")  # fmt: skip
_NAME = r"\|[A-Za-z]\w*\||[A-Za-z](?:\w*)"
_NAMES = rf"(?:{_NAME})(?:\s*,\s*(?:{_NAME}))*"
_REL = r"≤|<|≥|>"
_TERM = rf"(?:{_NUMBER}|{_NAMES})"
_CHAIN = re.compile(rf"(?<![\w^.]){_TERM}(?:\s*(?:{_REL})\s*{_TERM})+(?![\w^])")
_SPLIT = re.compile(rf"\s*({_REL})\s*")


@dataclass(frozen=True)
class Range:
    """What the statement allows of one name: ``low <= value <= high`` (``None``:
    unbounded that way); ``strict`` ends exclude their number."""

    low: float | None = None
    high: float | None = None
    low_strict: bool = False
    high_strict: bool = False

    def widen(self, other: Range) -> Range:
        low, low_strict = _wider(self.low, self.low_strict, other.low, other.low_strict, min)
        high, high_strict = _wider(self.high, self.high_strict, other.high, other.high_strict, max)
        return Range(low, high, low_strict, high_strict)

    def int_ends(self) -> tuple[int | None, int | None]:
        """The least and greatest integers allowed."""
        low = None if self.low is None else int(self.low) + (1 if self.low_strict else 0)
        high = None if self.high is None else int(self.high) - (1 if self.high_strict else 0)
        return low, high

    def contains(self, value: float) -> bool:
        if self.low is not None and (value < self.low or (self.low_strict and value == self.low)):
            return False
        return not (
            self.high is not None
            and (value > self.high or (self.high_strict and value == self.high))
        )


def _wider(
    a: float | None, a_strict: bool, b: float | None, b_strict: bool, pick: object
) -> tuple[float | None, bool]:
    if a is None:  # (a side one statement leaves open is the other's)
        return b, b_strict
    if b is None:
        return a, a_strict
    if a == b:
        return a, a_strict and b_strict
    chosen = min(a, b) if pick is min else max(a, b)
    return chosen, a_strict if chosen == a else b_strict


def base(name: str) -> str:
    """``a_i`` -> ``a``; ``|s_i|`` -> ``|s|``."""
    bare = name.strip("|").split("_")[0]
    return f"|{bare}|" if name.startswith("|") else bare


def normalise(text: str) -> str:
    """The text with one sign per relation and plain numbers (see the module)."""
    text = _SPACES.sub("", text).replace("&lt;", "<").replace("&gt;", ">")
    for _ in range(2):
        text = _WRAP.sub(r"\1", text)
    text = _BRACED.sub(lambda m: f"^{m[1]}" if m[1] is not None else f"_{m[2]}", text)
    text = _LESS_EQ.sub("≤", text)
    text = _MORE_EQ.sub("≥", text)
    text = _LESS.sub("<", text)
    text = _MORE.sub(">", text)
    text = _TIMES.sub("*", text)
    return text.replace("$", " ").replace("\\dots", " ").replace("\\ldots", " ")


def number(text: str) -> float | None:
    """``1,000``, ``2 * 10^4``, ``10^9+7``, ``2^31-1`` (normalised) as a number."""
    clean = re.sub(r"\s+", "", text).replace(",", "")
    match = re.fullmatch(r"(-?)(?:([\d.]+)\*)?(?:(\d+)\^(-?\d+)|([\d.]+))([-+]\d+)?", clean)
    if match is None:
        return None
    sign, factor, power_base, power, plain, offset = match.groups()
    try:
        value = float(plain) if plain else float(factor or 1) * float(power_base) ** int(power)
    except (ValueError, OverflowError):
        return None
    value += int(offset) if offset else 0
    if value != value or abs(value) == float("inf"):
        return None
    return -value if sign else value


def stated_bounds(text: str) -> dict[str, Range]:
    """Every name the statement bounds, with the widest range stated for it."""
    found: dict[str, Range] = {}
    for name, said in stated_ranges(text):
        found[name] = found[name].widen(said) if name in found else said
    return found


def stated_ranges(text: str) -> list[tuple[str, Range]]:
    """Each (name, range) the statement states, in its order (a subtask's too)."""
    found: list[tuple[str, Range]] = []
    for match in _CHAIN.finditer(normalise(text)):
        parts = _SPLIT.split(match[0])
        terms, relations = parts[::2], parts[1::2]
        if relations[0] in ("≥", ">"):
            terms, relations = terms[::-1], [_flip(r) for r in relations[::-1]]
        if any(r in ("≥", ">") for r in relations):
            continue  # (a chain that turns back: not a range)
        found += _ranges(terms, relations)
    return found


def _flip(relation: str) -> str:
    return {"≥": "≤", ">": "<"}.get(relation, relation)


def _ranges(terms: list[str], relations: list[str]) -> list[tuple[str, Range]]:
    """(name, range) for each name of an ascending chain ``terms`` joined by
    ``relations`` (each ``≤`` or ``<``): the nearest numbers on either side bound it
    (``1 ≤ k ≤ n ≤ 100`` bounds both k and n by 1 and 100)."""
    values = [number(t) for t in terms]
    out = []
    for index, term in enumerate(terms):
        if values[index] is not None or not re.match(r"\|?[A-Za-z]", term.strip()):
            continue
        below = [i for i in range(index) if values[i] is not None]
        above = [i for i in range(index + 1, len(terms)) if values[i] is not None]
        if not below and not above:
            continue
        low_at, high_at = (below[-1] if below else None), (above[0] if above else None)
        said = Range(
            None if low_at is None else values[low_at],
            None if high_at is None else values[high_at],
            low_at is not None and "<" in relations[low_at:index],
            high_at is not None and "<" in relations[index:high_at],
        )
        for name in term.split(","):
            out.append((name.strip(), said))
    return out
