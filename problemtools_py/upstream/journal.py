"""What an import has finished, kept so that a run killed mid-way starts again without
redoing a finished row: beside the output, ``.<out>.importing/`` holds ``journal.jsonl``
(a line per finished row: its key and its drop, or the file of its row) and ``rows/``
(each curated row as JSON, written whole before its line). A torn last line (the kill)
is read as not written. ``run.json`` says which import this is: another one's directory
is never reused."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import asdict
from pathlib import Path
from typing import Any

from problemtools_py.errors import FatalError
from problemtools_py.upstream.curate import Dropped
from problemtools_py.upstream.references import Kept

Outcome = Kept | Dropped


class Journal:
    def __init__(self, out: Path, run: dict[str, Any]) -> None:
        self.dir = out.parent / f".{out.name}.importing"
        self.rows = self.dir / "rows"
        self.done: dict[str, dict[str, str]] = {}
        marker = self.dir / "run.json"
        if self.dir.exists():
            if _read_json(marker) != run:
                raise FatalError(
                    "an unfinished import with other sources or options is here; "
                    "run it again as it was, or remove this directory",
                    path=self.dir,
                )
            self._load()
        else:
            self.rows.mkdir(parents=True)
            marker.write_text(json.dumps(run, sort_keys=True) + "\n", encoding="utf-8")
        self._lines = (self.dir / "journal.jsonl").open("a", encoding="utf-8")

    def _load(self) -> None:
        path = self.dir / "journal.jsonl"
        if not path.exists():
            return
        with path.open("rb") as handle:
            for raw in handle:
                if not raw.endswith(b"\n"):
                    break  # (torn by the kill: that row is done again)
                entry = json.loads(raw)
                self.done[entry["key"]] = entry

    def outcome(self, key: str) -> Outcome | None:
        """A finished row's outcome, or None when it is not finished."""
        entry = self.done.get(key)
        if entry is None:
            return None
        if "drop" in entry:
            return Dropped(entry["drop"], entry.get("detail", ""))
        data = json.loads((self.rows / entry["row"]).read_text(encoding="utf-8"))
        wrong = tuple(tuple(entry) for entry in data.get("wrong", ()))
        return Kept(**{**data, "others": tuple(data["others"]), "wrong": wrong})

    def record(self, key: str, outcome: Outcome) -> None:
        if isinstance(outcome, Dropped):
            entry = {"key": key, "drop": outcome.reason, "detail": outcome.detail}
        else:
            name = hashlib.sha256(key.encode()).hexdigest()[:32] + ".json"
            tmp = self.rows / f".{name}"
            tmp.write_text(json.dumps(asdict(outcome), ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, self.rows / name)
            entry = {"key": key, "row": name}
        self._lines.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._lines.flush()
        self.done[key] = entry

    def close(self) -> None:
        self._lines.close()

    def remove(self) -> None:
        self.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
