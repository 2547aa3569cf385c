"""Which built rows are kept: duplicates and contamination."""

from __future__ import annotations

from pathlib import Path

from problemtools_py.dataset.assemble import Assembler
from problemtools_py.dataset.build import Conversion
from problemtools_py.dataset.dedup import NgramIndex, statements_of
from problemtools_py.digests import digest
from problemtools_py.errors import FatalError


class Filters:
    """Exact and near duplicates (13-gram containment >= 0.3) within the input and against
    other datasets, and contamination against given statements. Rows that came from the
    dataset itself (parquet2kattis packages) pass untouched."""

    def __init__(self, dedup: list[Path], contamination: list[Path]) -> None:
        self.seen = NgramIndex()
        self.tests: dict[str, str] = {}
        self.dedup = _index(dedup)
        self.contamination = _index(contamination)

    def apply(self, assembler: Assembler, path: Path, outcome: Conversion) -> None:
        row = outcome.row
        if row is None or outcome.exact:
            assembler.add(path, outcome)
            return
        if (hit := self.contamination.find(row.statement)) is not None:
            assembler.drop(path, "contaminated", f"matches {hit[0]} ({hit[1]:.2f})")
        elif (hit := self.dedup.find(row.statement)) is not None:
            assembler.drop(path, "duplicate of an existing dataset", f"{hit[0]} ({hit[1]:.2f})")
        elif self.tests.get(row.problem_id, digest(row.tests_json)) != digest(row.tests_json):
            assembler.add(path, outcome)  # one id, different tests: the build reports it
        elif (hit := self.seen.find(row.statement)) is not None:
            assembler.drop(path, "duplicate in the input", f"{hit[0]} ({hit[1]:.2f})")
        else:
            self.seen.add(str(path), row.statement)
            self.tests[row.problem_id] = digest(row.tests_json)  # a hash: memory stays small
            assembler.add(path, outcome)


def _index(paths: list[Path]) -> NgramIndex:
    index = NgramIndex()
    for path in paths:
        if not path.exists():
            raise FatalError("no such file or dataset", path=path)
        for key, statement in statements_of(path):
            index.add(key, statement)
    return index
