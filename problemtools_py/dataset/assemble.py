"""Writing a whole dataset from converted packages, with bounded memory: each row is
spilled to a temporary file as it arrives, then the files are written in problem_id order
one row group at a time. Everything goes to a temporary directory renamed into place only
when complete, with build_report.json (drop counts, sha256 of the four files, the id rule)
and drops.jsonl (one line per dropped package)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from problemtools_py.dataset.build import Conversion, Row
from problemtools_py.dataset.ids import PROBLEM_ID_RULE
from problemtools_py.dataset.schema import (
    JUDGED,
    PROBLEMS,
    REFERENCES,
    REFERENCES_FILE,
    REPORT_FILE,
    judged_file,
    split_file,
)
from problemtools_py.dataset.writer import RowWriter
from problemtools_py.digests import file_digest
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode


class Assembler:
    def __init__(self, out: Path, item: str = "package") -> None:
        self.out = out
        self.item = item  # what a drop line names: a package, or an upstream row
        if out.exists():
            raise FatalError("already exists; choose a new output directory", path=out)
        out.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
        self.spill = self.tmp / ".rows"
        self.spill.mkdir()
        self.sources: dict[str, str] = {}
        self.split_of: dict[str, str] = {}
        self.run_of: dict[str, int] = {}  # rows of a later run go after (see RowWriter.start_run)
        self.splits: Counter[str] = Counter()
        self.judged: Counter[str] = Counter()  # rows with their own judge, by split
        self.drops: Counter[str] = Counter()
        self.drop_lines: list[str] = []

    def drop(self, source: Path, reason: str, detail: str) -> None:
        self.add(source, Conversion(drop=reason, detail=detail))

    def add(self, source: Path, outcome: Conversion) -> None:
        row = outcome.row
        if row is None:
            self.drops[outcome.drop or "dropped"] += 1
            self.drop_lines.append(
                json.dumps(
                    {self.item: str(source), "reason": outcome.drop, "detail": outcome.detail},
                    ensure_ascii=False,
                )
            )
            return
        seen = self.sources.get(row.problem_id)
        if seen is not None:
            raise FatalError(
                f"{source} and {seen} have the same problem_id {row.problem_id} "
                "(the same normalised statement): two problems with one id",
                path=source,
                exit_code=ExitCode.FINDINGS,
            )
        self.sources[row.problem_id] = str(source)
        self.split_of[row.problem_id] = row.split
        if row.run:
            self.run_of[row.problem_id] = row.run
        self.splits[row.split] += 1
        if row.judge_json:
            self.judged[row.split] += 1
        folder = self.spill / row.split
        folder.mkdir(exist_ok=True)
        (folder / row.problem_id).write_text(
            json.dumps(row.__dict__, ensure_ascii=False), encoding="utf-8"
        )

    def finish(self, report_extra: dict[str, Any] | None = None) -> Path:
        try:
            files = []
            for split in sorted(self.splits):
                files += self._write_split(split)
            refs = self.tmp / REFERENCES_FILE
            with RowWriter(refs, REFERENCES) as writer:
                for pid in self._in_order(self.sources):
                    writer.start_run(self.run_of.get(pid, 0))
                    split = self.split_of[pid]
                    writer.add({"problem_id": pid, "code": self._row(split, pid).reference})
            files.append(refs)
            shutil.rmtree(self.spill)
            (self.tmp / "drops.jsonl").write_text("".join(f"{line}\n" for line in self.drop_lines))
            report: dict[str, Any] = {
                "problem_id_rule": PROBLEM_ID_RULE,
                "rows": dict(sorted(self.splits.items())),
                "dropped": dict(sorted(self.drops.items())),
                "sha256": {f.name: file_digest(f) for f in files},
            }
            report.update(report_extra or {})
            if self.judged:  # (--keep-judges: the card's files are as ever)
                report["judged"] = dict(sorted(self.judged.items()))
            (self.tmp / REPORT_FILE).write_text(json.dumps(report, indent=2) + "\n")
            self.tmp.chmod(0o755)  # (mkdtemp's 0700, as every other output directory is made)
            os.replace(self.tmp, self.out)
        except BaseException:
            self.abort()
            raise
        return self.out

    def _write_split(self, split: str) -> list[Path]:
        """The split's rows: the comparator's in problems-<split>.parquet (the card's),
        those with their own judge in judged-<split>.parquet (when there are any)."""
        order = self._in_order(os.listdir(self.spill / split))
        plain = self.tmp / split_file(split)
        with RowWriter(plain, PROBLEMS) as writer:
            for row in self._rows(split, order):  # (one at a time: rows hold megabytes)
                if not row.judge_json:
                    writer.start_run(row.run)
                    writer.add(row.columns())
        if not self.judged[split]:
            return [plain]
        judged = self.tmp / judged_file(split)
        with RowWriter(judged, JUDGED) as writer:
            for row in self._rows(split, order):
                if row.judge_json:
                    writer.start_run(row.run)
                    writer.add({**row.columns(), "judge_json": row.judge_json})
        return [plain, judged]

    def _rows(self, split: str, order: list[str]) -> Iterator[Row]:
        for pid in order:
            yield self._row(split, pid)

    def _in_order(self, pids: Iterable[str]) -> list[str]:
        """``pids`` as the files hold them: by run, then by id (see RowWriter.start_run)."""
        return sorted(pids, key=lambda pid: (self.run_of.get(pid, 0), pid))

    def summary(self) -> dict[str, Any]:
        """What was built, for ``--json``: each row's problem_id, package and split (in
        the packages' order), and each dropped package with why."""
        problems = [
            {"problem_id": pid, "package": source, "split": self.split_of[pid]}
            for pid, source in sorted(self.sources.items(), key=lambda item: item[1])
        ]
        return {
            "tool": "problemtools_py",
            "out": str(self.out),
            "rows": dict(sorted(self.splits.items())),
            "dropped": dict(sorted(self.drops.items())),
            "problems": problems,
            "drops": [json.loads(line) for line in self.drop_lines],
        }

    def _row(self, split: str, pid: str) -> Row:
        return Row(**json.loads((self.spill / split / pid).read_text(encoding="utf-8")))

    def abort(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)
