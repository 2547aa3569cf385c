"""A dataset with tests added to some rows (``auditdata DATASET --augment K --out DIR``):
a new directory, the source left as it is. Each named row's ``tests_json`` gains the
given tests after its own, in order, while the card's caps hold (32 tests, 4 MiB of
stdin and stdout: see BuildOptions); what does not fit is left out and counted. Every
other file is copied byte for byte; a split file is rewritten only when one of its rows
changed (its rows, order, schema and metadata kept), and ``build_report.json`` gets the
new files' sha256 and an ``augmented`` entry saying what was added. Written under a
temporary name and renamed when whole."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from problemtools_py.dataset.arrow import pq
from problemtools_py.dataset.build import BuildOptions
from problemtools_py.dataset.derived import derived, read_report, write_report
from problemtools_py.dataset.schema import SPLITS, split_file, tests_json
from problemtools_py.dataset.writer import RowWriter

Tests = list[tuple[str, str]]


@dataclass
class Amended:
    """What :func:`amend` did."""

    out: Path
    added: dict[str, int] = field(default_factory=dict)  # problem_id -> tests added
    left_out: dict[str, int] = field(default_factory=dict)  # ... not added: over a cap
    files: list[str] = field(default_factory=list)  # the split files rewritten


def amend(source: Path, out: Path, new_tests: dict[str, Tests]) -> Amended:
    """``source`` copied to ``out`` with ``new_tests`` (by problem_id) added."""
    done = Amended(out)
    with derived(source, out) as tmp:
        wanted = {pid: tests for pid, tests in new_tests.items() if tests}
        for split in SPLITS:
            name = split_file(split)
            if (source / name).is_file() and _rewrite(source / name, tmp / name, wanted, done):
                done.files.append(name)
        _report(tmp, done)
    return done


def _rewrite(source: Path, target: Path, wanted: dict[str, Tests], done: Amended) -> bool:
    """``source``'s rows into ``target`` with the tests added; whether any changed."""
    file = pq.ParquetFile(source)
    ids = {str(pid) for pid in file.read(columns=["problem_id"]).column(0).to_pylist()}
    if not ids & set(wanted):
        return False
    target.unlink()
    caps = BuildOptions()
    with RowWriter(target, file.schema_arrow) as writer:
        for group in range(file.metadata.num_row_groups):
            for row in file.read_row_group(group).to_pylist():
                extra = wanted.get(str(row["problem_id"]))
                if extra:
                    row["tests_json"] = _grown(row, extra, caps, done)
                writer.add(row)
    return True


def _grown(row: dict[str, Any], extra: Tests, caps: BuildOptions, done: Amended) -> str:
    tests = [tuple(pair) for pair in json.loads(row["tests_json"])]
    size = sum(len(a.encode()) + len(b.encode()) for a, b in tests)
    pid = str(row["problem_id"])
    for stdin, stdout in extra:
        grown = size + len(stdin.encode()) + len(stdout.encode())
        if len(tests) >= caps.max_tests or grown > caps.max_test_bytes:
            done.left_out[pid] = done.left_out.get(pid, 0) + 1
            continue
        tests.append((stdin, stdout))
        size = grown
        done.added[pid] = done.added.get(pid, 0) + 1
    return tests_json([(a, b) for a, b in tests])


def _report(tmp: Path, done: Amended) -> None:
    """build_report.json with the rewritten files' digests and what was added."""
    report = read_report(tmp)
    report["augmented"] = {
        "tests_added": dict(sorted(done.added.items())),
        "left_out_over_caps": dict(sorted(done.left_out.items())),
    }
    write_report(tmp, report, done.files)
