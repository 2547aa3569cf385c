"""``importdataset``'s work: a source's files read a row at a time, each row through the
card's steps (curate.Screen in input order, then its references on the grader's
workers, a few rows ahead), every finished row in the journal, and at the end the card's
files (dataset.assemble) and, with ``packages``, a package per curated row."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from problemtools_py.dataset.assemble import Assembler
from problemtools_py.dataset.build import Conversion, Row
from problemtools_py.errors import FatalError
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.preflight import read_rows
from problemtools_py.grading.results import Settings
from problemtools_py.upstream.curate import (
    AFTER_DEDUP,
    NOT_SELECTED,
    STEPS,
    UNREADABLE,
    UNVALIDATED,
    Caps,
    Dropped,
    Screen,
    Screened,
)
from problemtools_py.upstream.journal import Journal, Outcome
from problemtools_py.upstream.problem import NotSelected, NotValidated, UnreadableRow
from problemtools_py.upstream.references import Kept, RowOptions, curated
from problemtools_py.upstream.sources import READERS, STATEMENT_COLUMN, Reader
from problemtools_py.window import ordered_window


@dataclass(frozen=True)
class ImportOptions:
    """One import: the source's layout, the row options, the caps, the statements to
    compare with, and the references run at once."""

    source: str
    rows: RowOptions = field(default_factory=RowOptions)
    caps: Caps = field(default_factory=Caps)
    livecodebench: tuple[Path, ...] = ()
    dedup_against: tuple[Path, ...] = ()
    jobs: int = 1
    append_to: Path | None = None  # a dataset the rows are appended to (the card's v1.1)
    submissions: tuple[Path, ...] = ()  # codeforces: codeforces-submissions files
    incorrect: tuple[Path, ...] = ()  # codeforces: its selected_incorrect files
    generated_tests: Path | None = None  # codeforces: test_cases_<contest>.parquet here
    ray: str | None = None  # a Ray cluster's address: references run there
    keep_judges: bool = False  # a checker the comparator is not: kept as the row's judge

    def run_key(self, files: list[Path]) -> dict[str, Any]:
        """What makes one import the same as another (for the journal)."""
        return {
            "source": self.source,
            "files": [_identity(f) for f in files],
            "rows": asdict(self.rows),
            "caps": asdict(self.caps),
            "livecodebench": [_identity(p) for p in self.livecodebench],
            "dedup_against": [_identity(p) for p in self.dedup_against],
            "submissions": [_identity(p) for p in self.submissions],
            "incorrect": [_identity(p) for p in self.incorrect],
            "generated_tests": None
            if self.generated_tests is None
            else _identity(self.generated_tests),
            "append_to": None if self.append_to is None else _identity(self.append_to),
            "keep_judges": self.keep_judges,
        }

    def reader(self) -> Reader:
        """The source's reader (open-r1's with its references and generated tests)."""
        if self.source != "codeforces":
            return READERS[self.source]
        from problemtools_py.upstream.codeforces import (
            CodeforcesReader,
            GeneratedTests,
            Submissions,
        )

        submissions = Submissions(list(self.submissions), list(self.incorrect))
        generated = GeneratedTests(
            self.generated_tests, self.caps.max_tests, self.caps.max_test_bytes
        )
        return CodeforcesReader(submissions, generated)


def _identity(path: Path) -> list[object]:
    """An input as the journal knows it: where it is, its size and its time (a file
    changed since the run was killed makes it another import: the rows it decides, its
    duplicates, its references, would not be the journal's)."""
    try:
        stat = path.stat()
    except OSError:  # (the command names what is missing where it reads it)
        return [str(path.resolve()), None, None]
    return [str(path.resolve()), stat.st_size, stat.st_mtime_ns]


@dataclass
class Tally:
    """Counts in the card's order: loaded, each step's drops, then the curated rows."""

    loaded: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    curated: Counter[str] = field(default_factory=Counter)  # by source
    resumed: int = 0  # rows finished by an earlier run
    done: int = 0  # rows finished (their outcome known and journaled)

    def steps(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"step": "loaded", "count": self.loaded}]
        left = self.loaded
        for reason in STEPS:
            out.append({"step": f"dropped: {reason}", "count": self.dropped[reason]})
            left -= self.dropped[reason]
            if reason == AFTER_DEDUP:
                out.append({"step": "problems after dedup", "count": left})
        out.append(
            {
                "step": "curated",
                "count": sum(self.curated.values()),
                "by_source": dict(sorted(self.curated.items())),
            }
        )
        return out


Item = tuple[str, "Screened | Dropped"]
# A source's rows turned into Python values at once: a TACO row's tests can be hundreds of
# megabytes, so a few, not preflight's 2,048 (the file's row group is decoded whole anyway).
SOURCE_BATCH_ROWS = 8
LEFT_OUT = {UnreadableRow: UNREADABLE, NotSelected: NOT_SELECTED, NotValidated: UNVALIDATED}


def screened(files: list[Path], reader: Reader, screen: Screen, tally: Tally) -> Iterator[Item]:
    """Every row of ``files`` in order, through the steps before references. A row's key
    is its file's name and its place (the path as given when two files share a name, as
    DeepCoder's configs' ``train-00000-of-00001.parquet`` do)."""
    names = [path.name for path in files]
    for path in files:
        shown = path.name if names.count(path.name) == 1 else str(path)
        for index, line, row in read_rows(path, SOURCE_BATCH_ROWS):
            key = f"{shown}:{index if line is None else f'line {line}'}"
            tally.loaded += 1
            if not isinstance(row, dict):
                yield key, Dropped(UNREADABLE, str(row) if isinstance(row, str) else "no object")
                continue
            try:
                problem = reader(row, key)
            except (UnreadableRow, NotSelected, NotValidated) as exc:
                yield key, Dropped(LEFT_OUT[type(exc)], str(exc))
                continue
            yield key, screen.decide(problem)


def check_layouts(files: list[Path], source: str) -> None:
    """Each file's first row has the source's statement column, or the import stops
    before it starts, naming the file and the columns it has (another SOURCE was meant)."""
    column = STATEMENT_COLUMN.get(source)
    for path in files:
        names = _columns(path)
        if column is None or names is None or column in names:
            continue
        has = ", ".join(sorted(names)[:12]) or "no columns"
        raise FatalError(
            f"not in {source}'s layout: its rows have no {column!r} (they have {has}); "
            "is it another SOURCE?",
            path=path,
        )


def _columns(path: Path) -> list[str] | None:
    """A file's columns: a parquet file's from its schema (no row group decoded), JSON
    lines' from the first row; None when there is no row, or no object, to tell."""
    with path.open("rb") as handle:
        parquet = handle.read(4) == b"PAR1"
    if parquet:
        import pyarrow.parquet as pq

        try:
            return list(pq.ParquetFile(path).schema_arrow.names)
        except Exception:  # (the import itself reports an unreadable file, naming it)
            return None
    row = next((found for _, _, found in read_rows(path, 1)), None)
    return list(row) if isinstance(row, dict) else None


def run_import(
    files: list[Path],
    out: Path,
    options: ImportOptions,
    packages: Path | None = None,
    progress: Callable[[Tally], None] = lambda tally: None,
) -> tuple[Path, Tally]:
    """The import, resumed from its journal when an earlier run of it was killed."""
    check_layouts(files, options.source)
    against = [*options.dedup_against, *([options.append_to] if options.append_to else [])]
    # (the statements to compare with read first: a missing one stops the import before
    # a journal is made that would then refuse the corrected command)
    screen = Screen(list(options.livecodebench), against, options.caps, options.keep_judges)
    journal = Journal(out, options.run_key(files))
    tally, order = Tally(), []
    try:
        with _curation(options) as (submit, finish):

            def start(item: Item) -> tuple[bool, Any]:
                """(True, outcome) when known now; (False, a handle on its curation)."""
                key, decided = item
                done = journal.outcome(key)
                if done is not None:
                    tally.resumed += 1
                    return True, done
                if isinstance(decided, Dropped):
                    return True, decided
                return False, submit(decided, options.rows)

            def result(started: tuple[bool, Any]) -> Outcome:
                known, value = started
                outcome: Outcome = value if known else finish(value)
                return outcome

            items = screened(files, options.reader(), screen, tally)
            window = 4 * options.jobs if options.ray is None else 256
            for (key, decided), outcome in ordered_window(items, start, result, window):
                if key not in journal.done:
                    journal.record(key, outcome)
                _count(tally, decided, outcome)
                order.append(key)
                tally.done += 1
                progress(tally)
        built = _finish(out, journal, order, tally, options, packages)
    except BaseException:
        journal.close()
        raise
    journal.remove()
    return built, tally


def _finish(
    out: Path,
    journal: Journal,
    order: list[str],
    tally: Tally,
    options: ImportOptions,
    packages: Path | None,
) -> Path:
    """The packages (when asked for), then the card's files: ``out``, or with
    ``append_to`` that dataset with the rows after its own (v1.1's rule)."""
    if packages is not None:
        _packages(journal, order, packages)
    if options.append_to is None:
        return _assemble(out, journal, order, tally)
    from problemtools_py.dataset.append import append

    shutil.rmtree(journal.dir / "built", ignore_errors=True)
    return append(options.append_to, _assemble(journal.dir / "built", journal, order, tally), out)


@contextmanager
def _curation(options: ImportOptions) -> Iterator[tuple[Callable[..., Any], Callable[[Any], Any]]]:
    """Where rows' references run: this machine's grader on ``jobs`` threads, or with
    ``ray`` a cluster's workers (see upstream.distributed)."""
    if options.ray is not None:
        from problemtools_py.upstream.distributed import ray_curation

        with ray_curation(options.ray) as pair:
            yield pair
        return
    grader = Grader(None, Settings(raw=True), options.jobs)
    with grader, ThreadPoolExecutor(options.jobs) as workers:
        yield (
            (lambda screened, rows: workers.submit(curated, grader, screened, rows)),
            Future.result,
        )


def _count(tally: Tally, decided: Screened | Dropped, outcome: Outcome) -> None:
    if isinstance(outcome, Dropped):
        tally.dropped[outcome.reason] += 1
    elif isinstance(decided, Screened):
        tally.curated[decided.problem.source] += 1
    else:  # (a journal's row its screening now drops: counted by the source it names)
        tally.curated[json.loads(outcome.origin_json)["source"]] += 1


def _assemble(out: Path, journal: Journal, order: list[str], tally: Tally) -> Path:
    assembler = Assembler(out, item="row")
    try:
        for key in order:
            outcome = journal.outcome(key)
            assert outcome is not None
            if isinstance(outcome, Dropped):
                assembler.drop(Path(key), outcome.reason, outcome.detail)
                continue
            row = Row(
                outcome.problem_id,
                outcome.split,
                outcome.statement,
                outcome.tests_json,
                outcome.time_limit_s,
                outcome.origin_json,
                outcome.reference,
                key,
                outcome.judge_json,
            )
            assembler.add(Path(key), Conversion(row))
        return assembler.finish({"build": tally.steps()})
    except BaseException:
        assembler.abort()
        raise


def _packages(journal: Journal, order: list[str], out: Path) -> None:
    """A package per curated row, one at a time; those an earlier run wrote are kept."""
    from problemtools_py.upstream.packages import write_package

    out.mkdir(parents=True, exist_ok=True)
    for key in order:
        outcome = journal.outcome(key)
        if isinstance(outcome, Kept) and not (out / outcome.problem_id).exists():
            write_package(outcome, out)


def total_rows(files: list[Path]) -> int | None:
    """How many rows the files hold (a parquet file's metadata; JSON lines' non-blank
    lines, counted a block at a time), for the progress bar's ETA; None when unknown."""
    total = 0
    for path in files:
        try:
            with path.open("rb") as handle:
                if handle.read(4) == b"PAR1":
                    import pyarrow.parquet as pq

                    total += pq.ParquetFile(path).metadata.num_rows
                    continue
                handle.seek(0)
                total += sum(1 for line in handle if line.strip())
        except Exception:  # (the import itself reports an unreadable file, naming it)
            return None
    return total
