"""Writing dataset files: row groups of 64 rows (or 32 Mi characters of text), zstd, rows
sorted by problem_id, the id rule in the key-value metadata, written under a temporary
name and renamed only when complete, so a failed or interrupted write leaves nothing
behind."""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from problemtools_py import atomicfile
from problemtools_py.dataset.ids import PROBLEM_ID_RULE
from problemtools_py.dataset.schema import COMPRESSION, ROW_GROUP_ROWS
from problemtools_py.errors import FatalError

# A row group also ends once its rows' text reaches this (rows of 4 MiB of tests would
# otherwise hold 256 MiB, and its copies, in memory while a group of 64 fills).
GROUP_CHARS = 32 << 20


class RowWriter:
    """``with RowWriter(path, schema) as w: w.add(row) ...``: streams rows, sorted by
    ``problem_id``, into row groups of ``ROW_GROUP_ROWS``."""

    def __init__(self, path: Path, schema: pa.Schema, rows_per_group: int = ROW_GROUP_ROWS) -> None:
        self.path = Path(path)
        kept = {k.decode(): v.decode() for k, v in (schema.metadata or {}).items()}
        self.schema = schema.with_metadata({**kept, "problem_id_rule": PROBLEM_ID_RULE})
        self.rows_per_group = rows_per_group
        self.buffer: list[dict[str, Any]] = []
        self.buffered = 0  # characters of text in the buffer
        self.last_id: str | None = None
        self.run = 0
        self.count = 0
        # (0644 at the end: others, a cluster's workers, read it)
        self.pending = atomicfile.Pending(self.path, 0o644, parents=True, suffix=".tmp")
        os.close(self.pending.fd)
        self.tmp = self.pending.tmp
        self.writer = pq.ParquetWriter(self.tmp, self.schema, compression=COMPRESSION)

    def add(self, row: dict[str, Any]) -> None:
        pid = row["problem_id"]
        if self.last_id is not None and pid <= self.last_id:
            raise FatalError(
                f"rows must be sorted by problem_id without repeats: {pid} after {self.last_id}",
                path=self.path,
            )
        self.last_id = pid
        self.buffer.append(row)
        self.count += 1
        self.buffered += sum(len(v) for v in row.values() if isinstance(v, str))
        if len(self.buffer) == self.rows_per_group or self.buffered >= GROUP_CHARS:
            self._flush()

    def start_run(self, run: int) -> None:
        """Rows of run ``run`` from here on: a new run's rows are sorted among themselves,
        after the ones before (the card's train file since v1.1: its v1 rows, then the
        rows v1.1 appended), in a row group of their own."""
        if run != self.run:
            self._flush()
            self.last_id = None
            self.run = run

    def _flush(self) -> None:
        if self.buffer:
            table = pa.Table.from_pylist(self.buffer, schema=self.schema)
            self.writer.write_table(table, row_group_size=self.rows_per_group)
            self.buffer = []
            self.buffered = 0

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            if kind is None:
                self._flush()
            self.writer.close()
            if kind is None:
                self.pending.commit()
        finally:
            self.pending.discard()
