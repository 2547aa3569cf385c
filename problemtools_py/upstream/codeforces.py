"""open-r1/codeforces rows (its ``verifiable`` config), with Python references from
open-r1/codeforces-submissions and the generated tests open-r1 ships per contest.

Layouts (the datasets' READMEs list the features; the card pins fbe3f6e9 and 07e7bf31):

- a problem: ``id`` (``"1000/A"``), ``title``, ``description``, ``input_format``,
  ``output_format``, ``note``, ``examples`` and ``official_tests`` (lists of ``{input,
  output}``), ``time_limit`` (seconds) and ``memory_limit`` (MB) as numbers, ``rating``,
  ``contest_start`` (a Unix time), ``input_mode`` (``"stdio"`` or file names),
  ``interaction_format`` (set for an interactive problem), ``generated_checker`` (a
  checker's source when several answers are right), ``generated_tests`` (how many);
- generated tests: ``test_cases_<contest_id>.parquet``, rows of ``problem_id``,
  ``test_case_i``, ``input``, ``output``;
- submissions (``selected_accepted``, ``selected_incorrect``): ``submission_id``,
  ``source`` (the program), ``contestId``, ``problem_index``, ``programmingLanguage``
  (``"Python 3"``, ``"PyPy 3-64"``, ``"Python 2"``...), ``verdict``, ``problem_id``.

The card's v1.1 selection: rating 1200-2400, a contest before 2024-08, stdio, no checker,
not interactive; a row outside it is not selected (ours: not one of the card's counts)."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from problemtools_py.errors import FatalError
from problemtools_py.grading.preflight import read_rows
from problemtools_py.upstream.problem import (
    MAX_REFERENCE_BYTES,
    MAX_REFERENCES,
    MAX_WRONG,
    NotSelected,
    Tests,
    UnreadableRow,
    Upstream,
    limit_mb,
    limit_seconds,
)
from problemtools_py.upstream.sources import MAX_STATEMENT

MAX_TESTS_READ = 64  # official tests read per problem at most (the caps keep 32)
BEFORE = int(datetime.datetime(2024, 8, 1, tzinfo=datetime.UTC).timestamp())


@dataclass(frozen=True)
class Selection:
    """The card's v1.1 choice of open-r1/codeforces rows."""

    min_rating: int = 1200
    max_rating: int = 2400
    before: int = BEFORE  # contest_start, a Unix time

    def why_not(self, row: Mapping[str, Any]) -> str | None:
        rating = row.get("rating")
        if not isinstance(rating, int | float) or not self.min_rating <= rating <= self.max_rating:
            return f"rating {rating} is outside {self.min_rating}-{self.max_rating}"
        start = row.get("contest_start")
        if not isinstance(start, int | float) or start >= self.before:
            return "the contest is not before the selection's date"
        if str(row.get("input_mode") or "stdio") != "stdio":
            return f"input_mode {row.get('input_mode')!r}: not stdin/stdout"
        if row.get("interaction_format"):
            return "interactive"
        if row.get("generated_checker"):
            return "it has a checker (several answers)"
        return None


PYTHON3 = ("Python 3", "PyPy 3")


class Submissions:
    """Each problem's programs from codeforces-submissions files, read once as a stream:
    the accepted Python 3 ones (``selected_accepted``; at most MAX_REFERENCES a problem)
    as references, and the rejected ones in a language judged here (``selected_incorrect``:
    Python 3, C++, Java; at most MAX_WRONG) as known-wrong programs."""

    def __init__(self, accepted: list[Path], incorrect: list[Path] | None = None) -> None:
        self.by_problem: defaultdict[str, list[str]] = defaultdict(list)
        self.wrong: defaultdict[str, list[tuple[str, str]]] = defaultdict(list)
        for path in [*accepted, *(incorrect or [])]:
            for _, line, row in read_rows(path, 64):
                if not isinstance(row, dict):
                    raise FatalError("not a submissions row", path=path, line=line)
                self._add(row)

    def _add(self, row: Mapping[str, Any]) -> None:
        language, code = str(row.get("programmingLanguage") or ""), row.get("source")
        if not isinstance(code, str) or len(code) > MAX_REFERENCE_BYTES:
            return
        problem = str(row.get("problem_id") or f"{row.get('contestId')}/{row.get('problem_index')}")
        if str(row.get("verdict") or "OK") != "OK":
            judged = judge_language(language)
            wrong = self.wrong[problem]
            if judged is not None and len(wrong) < MAX_WRONG and (judged, code) not in wrong:
                wrong.append((judged, code))
            return
        kept = self.by_problem[problem]
        if language.startswith(PYTHON3) and len(kept) < MAX_REFERENCES and code not in kept:
            kept.append(code)


def judge_language(name: str) -> str | None:
    """Our judge's code of a Codeforces language name (``GNU C++17``, ``PyPy 3-64``,
    ``Java 21``...), for those it judges here; None for the others (Python 2 included)."""
    if name.startswith(PYTHON3):
        return "python3"
    if "C++" in name:
        return "cpp"
    if name.startswith("Java "):
        return "java"
    return None


class GeneratedTests:
    """open-r1's generated tests of a problem, read from its contest's file as a stream of
    the rows that are the problem's (a contest's file can hold gigabytes), the first
    ones within the caps (what the row can keep: reading on would only fill memory), by
    ``test_case_i``."""

    def __init__(
        self, directory: Path | None, max_tests: int = 32, max_chars: int = 4 << 20
    ) -> None:
        self.directory = directory
        self.max_tests, self.max_chars = max_tests, max_chars

    def of(self, problem: str) -> list[tuple[str, str]]:
        if self.directory is None:
            return []
        path = self.directory / f"test_cases_{problem.split('/')[0]}.parquet"
        if not path.is_file():
            return []
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            file = pq.ParquetFile(path)
            groups = [g for g in range(file.metadata.num_row_groups) if _may_hold(file, g, problem)]
            columns = ["problem_id", "test_case_i", "input", "output"]
            batches = file.iter_batches(batch_size=8, row_groups=groups, columns=columns)
            return _bounded(problem, batches, self.max_tests, self.max_chars)
        except (pa.ArrowException, OSError, KeyError) as exc:
            raise FatalError(f"not a readable generated tests file: {exc}", path=path) from None


def _may_hold(file: Any, group: int, problem: str) -> bool:
    """Whether row group ``group`` may hold ``problem``'s rows (its statistics say)."""
    meta = file.metadata.row_group(group)
    column = file.metadata.schema.names.index("problem_id")
    stats = meta.column(column).statistics
    if stats is None or not stats.has_min_max:
        return True
    return str(stats.min) <= problem <= str(stats.max)


def _bounded(
    problem: str, batches: Iterator[Any], max_tests: int, max_chars: int
) -> list[tuple[str, str]]:
    found: list[tuple[int, str, str]] = []
    size = 0
    for batch in batches:
        for row in batch.to_pylist():
            if row.get("problem_id") != problem:
                continue
            stdin, stdout = row.get("input"), row.get("output")
            if not isinstance(stdin, str) or not isinstance(stdout, str):
                continue
            size += len(stdin) + len(stdout)
            if len(found) == max_tests or size > max_chars:
                return [(i, o) for _, i, o in sorted(found)]
            found.append((int(row.get("test_case_i") or 0), stdin, stdout))
    return [(i, o) for _, i, o in sorted(found)]


def codeforces_statement(row: Mapping[str, Any]) -> str:
    """The statement in the layout TACO's Codeforces rows have (which the examples reader
    and the dataset's other rows share): title, description, input, output, examples,
    note."""
    parts = [str(row.get("title") or "").strip(), str(row.get("description") or "").strip()]
    for heading, name in (("Input", "input_format"), ("Output", "output_format")):
        if row.get(name):
            parts.append(f"-----{heading}-----\n\n{str(row[name]).strip()}")
    shown = row.get("examples") or []
    if isinstance(shown, list) and shown:
        blocks = [f"Input\n{_text(e, 'input')}\nOutput\n{_text(e, 'output')}" for e in shown]
        parts.append("-----Examples-----\n" + "\n\n".join(blocks))
    if row.get("note"):
        parts.append(f"-----Note-----\n\n{str(row['note']).strip()}")
    text = "\n\n".join(p for p in parts if p) + "\n"
    if len(text) > MAX_STATEMENT or not str(row.get("description") or "").strip():
        raise UnreadableRow("no description, or one over the bound")
    return text


def _text(example: object, side: str) -> str:
    value = example.get(side) if isinstance(example, dict) else None
    return str(value or "").rstrip("\n")


def _official(row: Mapping[str, Any]) -> Tests:
    tests = []
    for test in row.get("official_tests") or []:
        if (
            isinstance(test, dict)
            and isinstance(test.get("input"), str)
            and isinstance(test.get("output"), str)
        ):
            tests.append((test["input"], test["output"]))
    return tuple(tests[:MAX_TESTS_READ])


class CodeforcesReader:
    """A reader of open-r1/codeforces rows (see READERS): its references and generated
    tests from the files given."""

    def __init__(
        self,
        submissions: Submissions,
        generated: GeneratedTests,
        selection: Selection = Selection(),
    ) -> None:
        self.submissions, self.generated, self.selection = submissions, generated, selection

    def __call__(self, row: Mapping[str, Any], key: str) -> Upstream:
        problem = str(row.get("id") or f"{row.get('contest_id')}/{row.get('index')}")
        why = self.selection.why_not(row)
        if why is not None:
            raise NotSelected(why)
        tests = _official(row) + tuple(self.generated.of(problem))
        if not tests:
            raise UnreadableRow("no tests (official_tests, generated tests)")
        start = row.get("contest_start")
        assert isinstance(start, int | float)  # (why_not saw to it)
        date = datetime.datetime.fromtimestamp(float(start), datetime.UTC).date().isoformat()
        return Upstream(
            source="codeforces",
            key=key,
            statement=codeforces_statement(row),
            tests=tests,
            references=tuple(self.submissions.by_problem.get(problem, ())),
            wrong=tuple(self.submissions.wrong.get(problem, ())),
            time_limit_s=limit_seconds(row.get("time_limit")),
            memory_mb=limit_mb(row.get("memory_limit")),
            origin={
                "dataset": "open-r1/codeforces",
                "id": problem,
                "rating": row.get("rating"),
                "contest_date": date,
                "url": f"https://codeforces.com/problemset/problem/{problem}",
            },
        )
