"""What generators.yaml asks for, as data: the test cases and directories to write under
``data/``, each with where its files come from. Pure values, no I/O.

The rules follow BAPCtools' documented semantics (its ``doc/generators.md``), so that the
same generators.yaml gives the same test case names and seeds there and here."""

from __future__ import annotations

import hashlib
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from problemtools_py.model.testdata import MADE_EXTENSIONS, data_directories

SEED = re.compile(r"\{seed(:[0-9]+)?\}")
NAME = re.compile(r"\{name\}")
SEED_MODULUS = 2**31
RANGE = re.compile(r"^(-?\d+)\.\.=(-?\d+)$")
MAX_COUNT = 100
# the extensions a test case's files may have, inline or written by a generator, and
# those only samples may have: the model's table (model.testdata.CASE_FILES)
CASE_EXTENSIONS = MADE_EXTENSIONS
# link targets: an override may say "use my .in" ({in.statement: {link: in}})
LINKABLE = ("in.statement", "ans.statement", "in.download", "ans.download")
# the directories under data/ a generators.yaml makes, in order: the model's, and the
# cases `generatedata --fuzz --add` recorded (data/fuzz: no test data, see audit.fuzz)
ROOT_DIRECTORIES = (*data_directories(legacy=False), "fuzz")


def seed_of(salt: str, count_value: int, command: str) -> int:
    """A test case's ``{seed}``: sha512 of the salt, ``:<count - 1>`` when the count value
    is not 1, and the command without surrounding white space, modulo 2**31."""
    text = salt + (f":{count_value - 1}" if count_value != 1 else "") + command.strip()
    return int(hashlib.sha512(text.encode()).hexdigest(), 16) % SEED_MODULUS


def count_values(node: object) -> list[int]:
    """The ``{count}`` values of a test case (``[1]`` without ``count``). Raises
    ValueError for a count that is not 1..100 values."""
    raw = node.get("count") if isinstance(node, dict) else None
    if raw is None:
        return [1]
    if isinstance(raw, bool):
        raise ValueError("count must be a number, a list of numbers or a range a..=b")
    if isinstance(raw, int):
        if not 1 <= raw <= MAX_COUNT:
            raise ValueError(f"count {raw} must be between 1 and {MAX_COUNT}")
        return list(range(1, raw + 1))
    if isinstance(raw, list):
        if not raw or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
            raise ValueError("a count list must hold numbers")
        if len(set(raw)) != len(raw) or len(raw) > MAX_COUNT:
            raise ValueError(f"a count list must hold distinct numbers, at most {MAX_COUNT}")
        return list(raw)
    match = RANGE.match(str(raw))
    if match is None:
        raise ValueError(f"count {raw!r} is not a number, a list or a range such as 1..=5")
    low, high = int(match[1]), int(match[2])
    if low > high or high - low + 1 > MAX_COUNT:
        raise ValueError(f"count range {raw} must run upwards over at most {MAX_COUNT} values")
    return list(range(low, high + 1))


CASE_KEYS = ("copy", "generate", "count", "match", *(e[1:] for e in CASE_EXTENSIONS))


def is_case(node: object) -> bool:
    return (
        node is None
        or isinstance(node, str)
        or (isinstance(node, dict) and any(k in node for k in CASE_KEYS))
    )


def is_directory(node: object) -> bool:
    return isinstance(node, dict) and not is_case(node)


def numbered_cases(node: object) -> int:
    """How many test cases the numbered lists of the whole tree hold (the width of every
    test case number is that count's)."""
    if not isinstance(node, dict):
        return 0
    data = node.get("data")
    entries, numbered = ([data], False) if isinstance(data, dict) else (data, True)
    total = 0
    for entry in entries if isinstance(entries, list) else ():
        for child in entry.values() if isinstance(entry, dict) else ():
            if is_case(child) and numbered:
                try:
                    total += len(count_values(child))
                except ValueError:
                    total += 1
            elif is_directory(child):
                total += numbered_cases(child)
    return total


def numbers(key: str, counter: Iterator[int], total: int) -> Iterator[str]:
    width = len(str(total))
    for number in counter:
        yield f"{number:0{width}}-{key}" if key else f"{number:0{width}}"


@dataclass(frozen=True)
class Command:
    """A generator invocation: the program (a name of the ``generators:`` map, or a file or
    directory below ``generators/``) and its arguments, split on white space."""

    text: str  # with constants and {count} substituted
    program: str
    args: tuple[str, ...]
    seed: int

    @property
    def uses_seed(self) -> bool:
        return any(SEED.search(a) for a in self.args)

    def argv(self, retry: int = 0) -> list[str]:
        """The arguments of the ``retry``-th attempt: ``{name}`` is ``testcase`` (the file
        the generator writes) and ``{seed}`` the seed plus the attempt's number."""
        value = str((self.seed + retry) % SEED_MODULUS)
        return [SEED.sub(value, NAME.sub("testcase", a)) for a in self.args]


def parse_command(text: str, salt: str, count_value: int) -> Command:
    """Raises ValueError for an empty command, bad quoting or more than one ``{seed}``."""
    words = shlex.split(text)
    if not words:
        raise ValueError("an empty command")
    if sum(len(SEED.findall(w)) for w in words[1:]) > 1:
        raise ValueError("{seed} (or {seed:N}) may appear at most once in a command")
    return Command(text, words[0], tuple(words[1:]), seed_of(salt, count_value, text))


@dataclass(frozen=True)
class CaseRule:
    """One test case to write at ``data/<path>.*``."""

    path: str  # e.g. "secret/03-random"
    line: int | None  # in generators.yaml
    generate: Command | None = None
    copy: str | None = None  # a base path below generators/, without extension
    inline: dict[str, str] = field(default_factory=dict)  # extension -> text
    links: dict[str, str] = field(default_factory=dict)  # extension -> extension it copies
    solution: str | None = None  # a path from the package root ("/submissions/...")
    retries: int = 1
    match: tuple[tuple[str, str], ...] = ()  # (extension, pattern) its files must match

    @property
    def group(self) -> str:
        return self.path.rsplit("/", 1)[0]

    def recipe(self) -> dict[str, Any]:
        """What decides its files, for the record of what was generated."""
        return {
            "generate": self.generate.text if self.generate else None,
            "seed": self.generate.seed if self.generate and self.generate.uses_seed else None,
            "copy": self.copy,
            "inline": dict(sorted(self.inline.items())),
            "links": dict(sorted(self.links.items())),
            "solution": self.solution,
            "retries": self.retries,
        }


@dataclass(frozen=True)
class DirRule:
    """A directory of ``data/``: its test_group.yaml (when given) and its includes."""

    path: str  # "" for data/ itself
    line: int | None
    test_group: str | None = None  # the text to write as test_group.yaml, or None
    includes: tuple[str, ...] = ()  # case paths copied into this directory
    validator_args: tuple[str, ...] | None = None  # its output_validator_args, if it sets them


@dataclass(frozen=True)
class PlanError:
    """A problem in generators.yaml, with its line."""

    message: str
    line: int | None


@dataclass(frozen=True)
class Plan:
    """generators.yaml read: the cases and directories it makes, and its errors."""

    cases: tuple[CaseRule, ...]
    dirs: tuple[DirRule, ...]
    generators: dict[str, tuple[str, ...]]  # name -> files below generators/
    errors: tuple[PlanError, ...]
    warnings: tuple[PlanError, ...] = ()

    def case(self, path: str) -> CaseRule | None:
        return next((c for c in self.cases if c.path == path), None)

    def validator_args(self, group: str) -> tuple[str, ...]:
        """The output validator's arguments in ``group``: those of the nearest directory
        whose test_group.yaml sets them (a sample's .interaction is made with them,
        before data/ holds those files)."""
        given = {d.path: d.validator_args for d in self.dirs if d.validator_args is not None}
        parts = group.split("/") if group else []
        for depth in range(len(parts), -1, -1):
            found = given.get("/".join(parts[:depth]))
            if found is not None:
                return found
        return ()
