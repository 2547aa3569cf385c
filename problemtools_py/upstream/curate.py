"""The card's curation before any program runs, in its order: a statement allowing
several answers, tests contradicting a statement example, overlap with LiveCodeBench,
duplicates (exact normalised statement, then 13-gram containment at 0.3, against the
rows kept so far and against ``--dedup-against`` datasets); the tests capped (32 tests,
4 MiB). Each row is decided in input order, so the result depends on that order only."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from problemtools_py.dataset.build import within_caps
from problemtools_py.dataset.dedup import NgramIndex, statements_of
from problemtools_py.errors import FatalError
from problemtools_py.grading.preflight import read_rows
from problemtools_py.upstream.checkers import reproduced
from problemtools_py.upstream.problem import Tests, Upstream
from problemtools_py.upstream.statement import contradiction, examples, several_answers

# The card's steps and words, in its order (its build table); the four before them: rows
# the card's counts do not hold (not in the source's layout, outside the card's selection
# of the source, tests the source does not vouch for: v1.1's table, or not stdin/stdout).
UNREADABLE = "unreadable upstream row"
NOT_SELECTED = "not selected (the card's choice of the source's rows)"
UNVALIDATED = "upstream tests not validated"  # (the card's v1.1 table)
CALL_BASED = "call-based tests (the card's rows are stdin/stdout)"
SEVERAL = "statement allows several answers"
CONTRADICTS = "tests contradict a statement example"
LIVECODEBENCH = "overlaps LiveCodeBench"
DUPLICATE = "duplicate"
NO_REFERENCE = "no passing Python 3 reference"
FIGURE = "figure in statement, no reference"  # (the card's v1.1 table)
TOO_SLOW = "reference too slow"
DISAGREE = "references disagree"
TOO_FEW = "too few tests"
STEPS = (
    UNREADABLE,
    NOT_SELECTED,
    UNVALIDATED,
    CALL_BASED,
    SEVERAL,
    CONTRADICTS,
    LIVECODEBENCH,
    DUPLICATE,
    NO_REFERENCE,
    FIGURE,
    TOO_SLOW,
    DISAGREE,
    TOO_FEW,
)
AFTER_DEDUP = DUPLICATE  # the card counts "problems after dedup" after this step


@dataclass(frozen=True)
class Caps:
    """The card's bounds on a row's tests: how many, and their bytes (stdin and stdout)."""

    max_tests: int = 32
    max_test_bytes: int = 4 << 20


@dataclass(frozen=True)
class Screened:
    """A row through the steps before its references run: its tests capped."""

    problem: Upstream
    tests: Tests
    judge: str = ""  # the checker it keeps, under --keep-judges (see upstream.judged)


@dataclass(frozen=True)
class Dropped:
    """A row left out: the card's step (its words) and what showed it."""

    reason: str
    detail: str = ""


class Screen:
    """The steps before references, one row at a time in input order."""

    def __init__(
        self,
        livecodebench: list[Path],
        dedup_against: list[Path],
        caps: Caps = Caps(),
        keep_judges: bool = False,
    ) -> None:
        self.caps, self.keep_judges = caps, keep_judges
        self.livecodebench = _index(livecodebench, lcb=True)
        self.against = _index(dedup_against, lcb=False)
        self.pool = NgramIndex()

    def decide(self, problem: Upstream) -> Screened | Dropped:
        if problem.call is not None:
            return Dropped(CALL_BASED, f"the tests call {problem.call}()")
        phrase = several_answers(problem.statement)
        if phrase is not None:
            return Dropped(SEVERAL, f"the statement says {phrase!r}")
        own = problem.checker is not None and reproduced(problem.checker) is None
        if own and not self.keep_judges:
            return Dropped(SEVERAL, "its checker is no stock one the comparator reproduces")
        clash = contradiction(examples(problem.statement), problem.tests)
        if clash is not None:
            return Dropped(CONTRADICTS, clash)
        hit = self.livecodebench.find(problem.statement)
        if hit is not None:
            return Dropped(LIVECODEBENCH, f"{hit[0]} ({hit[1]:.2f})")
        hit = self.against.find(problem.statement) or self.pool.find(problem.statement)
        if hit is not None:
            return Dropped(DUPLICATE, f"of {hit[0]} ({hit[1]:.2f})")
        self.pool.add(problem.key, problem.statement)
        tests = capped(problem.tests, self.caps)  # (the rest let go now: rows wait in flight)
        judge = problem.checker if own and problem.checker is not None else ""
        return Screened(replace(problem, tests=tests), tests, judge)


def capped(tests: Tests, caps: Caps) -> Tests:
    """The first tests within both caps, in order (the card: 32 tests, 4 MiB)."""
    return tests[: within_caps(tests, caps.max_tests, caps.max_test_bytes)]


LCB_FIELDS = ("question_content", "statement", "problem", "question")


def _index(paths: list[Path], lcb: bool) -> NgramIndex:
    """Statements to compare with: datasets (``statements_of``) or, for LiveCodeBench,
    its published rows (``question_content``, parquet or JSON lines)."""
    index = NgramIndex()
    for path in paths:
        if not path.exists():
            raise FatalError("no such file or dataset", path=path)
        if not lcb or path.is_dir():
            for key, statement in statements_of(path):
                index.add(key, statement)
            continue
        for number, line, row in read_rows(path):
            fields = row if isinstance(row, dict) else {}
            text = next((fields[f] for f in LCB_FIELDS if isinstance(fields.get(f), str)), None)
            if text is None:
                raise FatalError(
                    f"a LiveCodeBench row needs one of {', '.join(LCB_FIELDS)}",
                    path=path,
                    line=line,
                )
            index.add(f"{path.name}:{fields.get('question_id', number)}", text)
    return index
