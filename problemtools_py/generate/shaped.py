"""Random inputs where there is no generator (a dataset row, a package without
``generators.yaml``): new inputs shaped as the tests' inputs are, with values within the
bounds the statement states (auditdata keeps a package's only when its input validators
accept them).

Each input is read as lines of tokens (integers, decimals, words). A small integer at the
head of a line that counts what follows is *structural*: the number of the lines after
it (``n`` then ``n`` rows), the number of tokens on the next line (``n`` then ``a_1 ...
a_n``), a first line's count of test cases, or the length of the word below (a grid's
width); a token's role is the one it plays in every test (else it is kept). The first
two may grow or shrink (the rows are then made anew, each after one of the test's
rows); the last two are kept. Every other value is drawn again: an integer from a range
the statement states (``1 \\le a_i \\le 10^9``) that holds every value seen in its
column (the same place on lines of the same kind, over all tests), its ends most often;
without one, within the values seen. Words keep their length and their column's
alphabet; a column of few distinct words draws among them. A fresh input is
deterministic in the seed. The caller keeps only inputs the reference answers (a
statement may be read too widely)."""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass, field
from functools import cached_property

from problemtools_py.model.bounds import Range, stated_bounds

INT = re.compile(r"-?\d+")
DECIMAL = re.compile(r"-?\d+\.\d+")
WIDE = 4  # a line of more tokens is an array: one column for all its values
MAX_BYTES = 256 << 10  # a fresh input grows no larger (the rows it adds stop)
Key = tuple[object, ...]


@dataclass
class Column:
    """What one place holds over all the tests."""

    values: list[str] = field(default_factory=list)

    @cached_property
    def seen(self) -> list[int]:
        """Its integers (or its decimals' whole parts): read once, all being known."""
        found = [int(v) for v in self.values if INT.fullmatch(v)]
        return found or [int(float(v)) for v in self.values if DECIMAL.fullmatch(v)]

    @cached_property
    def distinct(self) -> list[str]:
        return sorted(set(self.values))

    @cached_property
    def alphabet(self) -> list[str]:
        return sorted(set("".join(self.values))) or list(string.ascii_lowercase)


@dataclass(frozen=True)
class Line:
    """One line of an input: its tokens and what its structural ones count."""

    tokens: tuple[str, ...]
    lines_at: int | None = None  # index of the token counting the lines after it
    width_at: int | None = None  # index of the token counting the next line's tokens
    fixed: frozenset[int] = frozenset()  # tokens kept as they are (test-case counts)


def roles(text: str) -> list[tuple[tuple[str, ...], list[set[str]]]]:
    """``text``'s lines, each token with the structural roles it may play (see the
    module): ``lines``, ``width``, ``fixed``; none for a value."""
    rows = [tuple(line.split()) for line in text.split("\n")]
    while rows and not rows[-1]:
        rows.pop()
    # uniform[i]: every line after line i has the same width (found from the end: a
    # test of 10^5 lines is read in one pass, not once per line)
    uniform = [True] * len(rows)
    for index in range(len(rows) - 3, -1, -1):
        same = len(rows[index + 1]) == len(rows[index + 2])
        uniform[index] = same and uniform[index + 1]
    found = []
    for index, tokens in enumerate(rows):
        below = len(rows) - index - 1  # lines after this one
        played: list[set[str]] = [set() for _ in tokens]
        for at, token in enumerate(tokens):
            if len(tokens) > 3 or not below or not INT.fullmatch(token) or int(token) <= 0:
                continue
            value, following = int(token), rows[index + 1]
            if value == below and uniform[index]:
                played[at].add("lines")
            if value == len(following):
                played[at].add("width")
            if index == 0 and len(tokens) == 1 and value <= below:
                played[at].add("fixed")  # (a count of test cases)
            if len(following) == 1 and value == len(following[0]):
                played[at].add("fixed")  # (the length of the words below: a grid's width)
        found.append((tokens, played))
    return found


def _shape(
    read: list[tuple[tuple[str, ...], list[set[str]]]], role: dict[Key, set[str]]
) -> list[Line]:
    """Lines with their structural tokens marked: the first that may count the lines
    after it does, the first other that may count the next line's tokens does, and
    any other that is structural somewhere is kept."""
    lines: list[Line] = []
    for index, (tokens, _played) in enumerate(read):
        marks = {at: role.get(_spot(index, len(tokens), at), set()) for at in range(len(tokens))}
        lines_at = next((at for at, r in marks.items() if "lines" in r), None)
        width_at = next((at for at, r in marks.items() if "width" in r and at != lines_at), None)
        fixed = frozenset(at for at, r in marks.items() if r and at not in (lines_at, width_at))
        lines.append(Line(tokens, lines_at, width_at, fixed))
    return lines


def _spot(index: int, width: int, at: int) -> Key:
    """Where a possibly structural token is (a head line's place and width)."""
    return (index, width, at)


def _roles(reads: list[list[tuple[tuple[str, ...], list[set[str]]]]]) -> dict[Key, set[str]]:
    """The roles each head token may play in every test where it is; ``fixed`` for
    one whose tests disagree, or that is a value in one of them (a structural token
    is never drawn as a value)."""
    seen: dict[Key, list[set[str]]] = {}
    for read in reads:
        for index, (tokens, played) in enumerate(read):
            for at, options in enumerate(played):
                seen.setdefault(_spot(index, len(tokens), at), []).append(options)
    role = {}
    for spot, each in seen.items():
        if any(each):
            common: set[str] = set.intersection(*each)
            role[spot] = common or {"fixed"}
    return role


class ShapedFuzzer:
    """Fresh inputs like ``inputs``, within ``statement``'s bounds."""

    def __init__(self, inputs: list[str], statement: str, seed: int) -> None:
        reads = [roles(text) for text in inputs]
        role = _roles(reads)
        self.shapes = [_shape(read, role) for read in reads]
        self.ranges = integer_ranges(statement)
        self.rng = random.Random(seed)
        self.columns: dict[Key, Column] = {}
        # a column's ranges and ends, found at its first draw
        self._fits: dict[Key, tuple[list[Range], int, int]] = {}
        for shape in self.shapes:
            for key, token in _placed(shape):
                self.columns.setdefault(key, Column()).values.append(token)

    def fresh(self) -> str:
        """One new input (newline-terminated lines)."""
        shape = self.rng.choice(self.shapes) if self.shapes else []
        out: list[str] = []
        size = 0
        index = 0
        while index < len(shape) and size < MAX_BYTES:
            line = shape[index]
            tokens = self._line(index, line, shape)
            out.append(" ".join(tokens))
            if line.lines_at is not None:
                width = int(tokens[line.width_at]) if line.width_at is not None else None
                out += self._rows(shape[index + 1 :], int(tokens[line.lines_at]), width)
                break
            if line.width_at is not None and index + 1 < len(shape):
                count = int(tokens[line.width_at])
                out.append(" ".join(self._values(("array", index), shape[index + 1], count)))
                index += 1
            index += 1
            size += len(out[-1])
        return "".join(f"{line}\n" for line in out)

    def _line(self, index: int, line: Line, shape: list[Line]) -> list[str]:
        tokens = list(line.tokens)
        rows_from = _rows_from(shape)
        for at, token in enumerate(tokens):
            if at in line.fixed:
                continue
            key = _key(index, line, at, shape, rows_from)
            if at in (line.lines_at, line.width_at):
                tokens[at] = str(self._count(key, int(token), shape, index))
            else:
                tokens[at] = self._draw(key, token)
        return tokens

    def _count(self, key: Key, seen: int, shape: list[Line], index: int) -> int:
        """A structural value: as seen, or drawn within the narrowest range that holds
        its column (the rows it brings bounded by MAX_BYTES)."""
        roll = self.rng.random()
        if roll < 0.4:
            return seen
        low, high = self._int_range(key, narrowest=True)
        low = max(1, low)
        rest = shape[index + 1 :]
        per = max(1, max((len(" ".join(r.tokens)) + 1 for r in rest), default=1))
        high = max(low, min(high, MAX_BYTES // per))
        return high if roll < 0.7 else _log_uniform(self.rng, low, high)

    def _rows(self, templates: list[Line], count: int, width: int | None) -> list[str]:
        rows = []
        size = 0
        for _ in range(count):
            template = self.rng.choice(templates) if templates else Line(("0",))
            wide = width if width is not None else len(template.tokens)
            row = " ".join(self._values(("row", _width(template)), template, wide))
            size += len(row) + 1
            if size > MAX_BYTES:
                break
            rows.append(row)
        return rows

    def _values(self, where: Key, template: Line, count: int) -> list[str]:
        """``count`` values for a line made after ``template``."""
        seen = list(template.tokens) or ["0"]
        wide = len(seen) > WIDE
        return [
            self._draw((*where, "*" if wide else i % len(seen)), seen[i % len(seen)])
            for i in range(count)
        ]

    def _draw(self, key: Key, token: str) -> str:
        column = self.columns.get(key, Column([token]))
        if INT.fullmatch(token):
            low, high = self._int_range(key)
            return str(self._pick(low, high))
        if DECIMAL.fullmatch(token):
            low, high = self._int_range(key)
            places = len(token.split(".")[1])
            whole = self._pick(low, max(low, high - 1)) if high > low else low
            return f"{whole + self.rng.random():.{places}f}"
        if len(column.distinct) <= 4 and len(column.values) > len(column.distinct):
            return self.rng.choice(column.distinct)
        return "".join(self.rng.choice(column.alphabet) for _ in token)

    def _int_range(self, key: Key, narrowest: bool = False) -> tuple[int, int]:
        """A range the statement states that holds every value of the column (one
        of them, chosen at random; the narrowest for a count), else the values seen."""
        column = self.columns.get(key, Column())
        seen = column.seen
        if not seen:
            return 0, 0
        if key not in self._fits:  # (a range holds them all when it holds both ends)
            least, most = min(seen), max(seen)
            fit = [r for r in self.ranges if r.contains(least) and r.contains(most)]
            self._fits[key] = (fit, least, most)
        fits, least, most = self._fits[key]
        if not fits:
            return least, most
        chosen = min(fits, key=_span) if narrowest else self.rng.choice(fits)
        low, high = chosen.int_ends()
        assert low is not None and high is not None  # (finite: see __init__)
        return low, high

    def _pick(self, low: int, high: int) -> int:
        roll = self.rng.random()
        if roll < 0.3:
            return high
        if roll < 0.45:
            return low
        if roll < 0.55:
            return max(low, high - self.rng.randint(1, 3))
        if roll < 0.65:
            return min(high, low + self.rng.randint(1, 3))
        return _log_uniform(self.rng, low, high)

    def bounds_broken(self, inputs: list[str]) -> list[tuple[int, str]]:
        """The tests (index, value) with an integer above every upper bound the
        statement states, or below every lower one."""
        span = integer_span(self.ranges)
        if span is None:
            return []
        broken = []
        for index, text in enumerate(inputs):
            for token in text.split():
                if INT.fullmatch(token) and not within(token, *span):
                    broken.append((index, token if len(token) < 40 else token[:37] + "..."))
                    break
        return broken


def integer_ranges(statement: str) -> list[Range]:
    """The finite integer ranges ``statement`` states (``|a_i| <= c`` read as -c to c for
    a number; a word's length is kept anyway): the one reading of a statement's bounds
    that fresh inputs, auditdata and an imported problem's input validator share."""
    said = stated_bounds(statement)
    said.update(
        {
            n: Range(-r.high, r.high)
            for n, r in said.items()
            if n.startswith("|") and r.high is not None
        }
    )
    return [r for r in said.values() if _finite(r)]


def integer_span(ranges: list[Range]) -> tuple[int, int] | None:
    """The least lower and the greatest upper end of ``ranges`` (finite), or None."""
    if not ranges:
        return None
    ends = [r.int_ends() for r in ranges]
    return min(low or 0 for low, _ in ends), max(high or 0 for _, high in ends)


def within(token: str, least: int, most: int) -> bool:
    """Whether an integer token is in [least, most]; one of thousands of digits is not
    (Python refuses to read it, and no statement bounds it so)."""
    return len(token) <= 4000 and least <= int(token) <= most


def _finite(said: Range) -> bool:
    low, high = said.int_ends()
    return low is not None and high is not None and low <= high


def _span(said: Range) -> float:
    low, high = said.int_ends()
    return float("inf") if low is None or high is None else high - low


def _width(line: Line) -> object:
    return len(line.tokens) if len(line.tokens) <= WIDE else "many"


def _rows_from(shape: list[Line]) -> int:
    """The index of the first line counted by a line count (past the end: none)."""
    return next(
        (i + 1 for i, line in enumerate(shape) if line.lines_at is not None), len(shape) + 1
    )


def _key(index: int, line: Line, at: int, shape: list[Line], rows_from: int) -> Key:
    """A token's column: its line's place (or kind) and its own place on the line."""
    if index > 0 and shape[index - 1].width_at is not None:
        return ("array", index - 1, "*" if len(line.tokens) > WIDE else at)
    where: object = "row" if index >= rows_from else index  # (a row under a line count)
    wide = len(line.tokens) > WIDE
    return (where, _width(line), "*" if wide else at)


def _placed(shape: list[Line]) -> list[tuple[Key, str]]:
    rows_from = _rows_from(shape)
    return [
        (_key(index, line, at, shape, rows_from), token)
        for index, line in enumerate(shape)
        for at, token in enumerate(line.tokens)
    ]


def _log_uniform(rng: random.Random, low: int, high: int) -> int:
    """An integer of ``[low, high]`` of a random magnitude (small and large alike)."""
    if high <= low:
        return low
    span = high - low
    digits = rng.uniform(0, len(str(span)))
    return low + min(span, int(10**digits) - 1 + rng.randint(0, 1))
