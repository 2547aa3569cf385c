"""Where the problems to grade on come from: a dataset directory, or a directory of
problem packages (each read like kattis2parquet would: its tests and time limit)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Protocol

from problemtools_py.dataset.build import read_tests, statement_text
from problemtools_py.dataset.export import SIDECAR
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.reader import Dataset
from problemtools_py.errors import FatalError
from problemtools_py.model import load_problem

Tests = tuple[tuple[str, str], ...]


class ProblemSource(Protocol):
    def fetch(self, pid: str) -> tuple[Tests, float] | None: ...

    def ids(self) -> set[str]: ...


class DatasetSource:
    def __init__(self, data: Dataset) -> None:
        self.data = data

    def fetch(self, pid: str) -> tuple[Tests, float] | None:
        for split in self.data.splits:
            found = self.data.problem(split, pid)
            if found is not None:
                return found.tests, found.time_limit_s
        return None

    def ids(self) -> set[str]:
        return {pid for split in self.data.splits for pid in self.data.ids(split)}


class PackagesSource:
    """Packages in a directory, known by problem_id (from .dataset.json, else the id of
    their English statement)."""

    def __init__(self, root: Path) -> None:
        self.paths: dict[str, Path] = {}
        for path in sorted(p for p in root.iterdir() if (p / "problem.yaml").is_file()):
            self.paths[_id_of(path)] = path

    def ids(self) -> set[str]:
        return set(self.paths)

    def fetch(self, pid: str) -> tuple[Tests, float] | None:
        path = self.paths.get(pid)
        if path is None:
            return None
        sidecar = path / SIDECAR
        if sidecar.is_file():
            limit = float(json.loads(sidecar.read_text(encoding="utf-8"))["time_limit_s"])
        else:
            limit = load_problem(path).config.limits.time_limit or 1.0
            dot = path / ".timelimit"
            if dot.is_file():
                limit = float(dot.read_text().split()[0])
        return tuple(read_tests(path)), limit


def _id_of(path: Path) -> str:
    sidecar = path / SIDECAR
    if sidecar.is_file():
        return str(json.loads(sidecar.read_text(encoding="utf-8"))["problem_id"])
    statement = statement_text(load_problem(path))
    if statement is None:
        raise FatalError("no English statement to identify the problem by", path=path)
    return problem_id(statement)


def open_source(source: Path | str | Dataset) -> ProblemSource:
    if isinstance(source, Dataset):
        return DatasetSource(source)
    root = Path(source)
    if not root.is_dir():
        raise FatalError("neither a dataset nor a directory of problem packages", path=root)
    if any(root.glob("problems-*.parquet")):
        return DatasetSource(Dataset(root))
    return PackagesSource(root)
