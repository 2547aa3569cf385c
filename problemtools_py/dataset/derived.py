"""A new dataset directory made from another (``auditdata --augment``'s amended copy,
``importdataset --append-to``'s appended one): the source's files copied into a
temporary directory beside the output, edited there, renamed into place only when whole."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from problemtools_py.dataset.schema import REPORT_FILE
from problemtools_py.digests import file_digest
from problemtools_py.errors import FatalError


@contextmanager
def derived(source: Path, out: Path) -> Iterator[Path]:
    """The temporary directory holding a copy of ``source``'s files, for the block to
    edit; it becomes ``out`` when the block ends, and is removed if the block fails."""
    if out.exists():
        raise FatalError("already exists; choose a new output directory", path=out)
    if out.resolve() == source.resolve():
        raise FatalError("the output must be a new directory, not the dataset", path=out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for path in sorted(source.iterdir()):
            if path.is_file():
                shutil.copy2(path, tmp / path.name)
        yield tmp
        tmp.chmod(0o755)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def read_report(directory: Path) -> dict[str, Any]:
    """``directory``'s build_report.json as an object ({} when absent or not one)."""
    path = directory / REPORT_FILE
    try:
        value = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except ValueError:
        value = {}
    return value if isinstance(value, dict) else {}


def write_report(directory: Path, report: dict[str, Any], rewritten: list[str]) -> None:
    """``report`` as ``directory``'s build_report.json, with the sha256 of each file
    ``rewritten`` (its others' are the source's, as copied)."""
    digests = report.setdefault("sha256", {})
    if isinstance(digests, dict):
        for name in rewritten:
            digests[name] = file_digest(directory / name)
    path = directory / REPORT_FILE
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
