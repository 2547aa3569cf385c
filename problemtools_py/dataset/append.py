"""A dataset with rows appended (the card's v1.1 rule): every row of the base keeps its
index and content; the new rows, sorted by problem_id among themselves, follow the base's
train rows (and its references) as a run of their own (see RowWriter.start_run). The
other split files are copied byte for byte (their sha256 unchanged), build_report.json
gains an ``appended`` entry and the new files' digests, drops.jsonl the new drops.
Written under a temporary name and renamed when whole."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from problemtools_py.dataset.arrow import pq
from problemtools_py.dataset.derived import derived, read_report, write_report
from problemtools_py.dataset.reader import SplitFile
from problemtools_py.dataset.schema import REFERENCES_FILE, split_file
from problemtools_py.dataset.writer import RowWriter
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

TRAIN = split_file("train")


def append(base: Path, built: Path, out: Path) -> Path:
    """``base`` with ``built``'s train rows (and their references) appended, as ``out``."""
    if {p.name for p in built.glob("*.parquet")} - {TRAIN, REFERENCES_FILE}:
        raise FatalError("only train rows are appended", path=built)
    _no_shared_ids(base, built)
    with derived(base, out) as tmp:
        added = 0
        if (built / TRAIN).is_file():
            added = _appended(base / TRAIN, built / TRAIN, tmp / TRAIN)
        if (built / REFERENCES_FILE).is_file():
            _appended(base / REFERENCES_FILE, built / REFERENCES_FILE, tmp / REFERENCES_FILE)
        _drops(built, tmp)
        _report(built, tmp, added)
    return out


def _no_shared_ids(base: Path, built: Path) -> None:
    ids: set[str] = set()
    for path in base.glob("problems-*.parquet"):
        ids.update(
            str(i) for i in pq.read_table(path, columns=["problem_id"]).column(0).to_pylist()
        )
    if (built / TRAIN).is_file():
        new = pq.read_table(built / TRAIN, columns=["problem_id"]).column(0).to_pylist()
        shared = sorted(ids & {str(i) for i in new})
        if shared:
            why = f"problem_id {shared[0]} is in the base already: rows are never replaced"
            raise FatalError(why, path=built, exit_code=ExitCode.FINDINGS)


def _appended(base: Path, built: Path, target: Path) -> int:
    """``base``'s rows as they are, then ``built``'s as a new run; how many were added."""
    source = SplitFile(base) if base.is_file() else None
    new = pq.ParquetFile(built)
    schema = source.file.schema_arrow if source is not None else new.schema_arrow
    target.unlink(missing_ok=True)
    with RowWriter(target, schema) as writer:
        runs = 0
        if source is not None:
            for index, row in _rows(source.file):
                writer.start_run(source.run_of(index))
                writer.add(row)
            runs = len(source.run_starts)
        writer.start_run(runs)
        added = 0
        for _, row in _rows(new):
            writer.add(row)
            added += 1
    return added


def _rows(file: pq.ParquetFile) -> Iterator[tuple[int, dict[str, Any]]]:
    index = 0
    for group in range(file.metadata.num_row_groups):
        for row in file.read_row_group(group).to_pylist():
            yield index, row
            index += 1


def _drops(built: Path, tmp: Path) -> None:
    new = built / "drops.jsonl"
    if new.is_file():
        with (tmp / "drops.jsonl").open("ab") as out:
            out.write(new.read_bytes())


def _report(built: Path, tmp: Path, added: int) -> None:
    report, new = read_report(tmp), read_report(built)
    rows = report.setdefault("rows", {})
    if isinstance(rows, dict):
        rows["train"] = int(rows.get("train", 0)) + added
    entry = {"rows": added, "dropped": new.get("dropped", {})}
    if "build" in new:
        entry["build"] = new["build"]
    appended = report.setdefault("appended", [])
    if isinstance(appended, list):
        appended.append(entry)
    write_report(tmp, report, [name for name in (TRAIN, REFERENCES_FILE) if (tmp / name).is_file()])
