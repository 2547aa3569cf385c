"""What in data/ generators.yaml did not make: with generators.yaml, all of the test data
is generated, so anything else there is reported (a warning naming the file) or, when
asked, removed (then empty directories too). Auxiliary names (``.gitignore``) are left,
and so are the files of a case no run has made yet (its generator failed)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from problemtools_py.findings import Finding, warning
from problemtools_py.generate.plan import Plan
from problemtools_py.generate.records import Records
from problemtools_py.model.testdata import split_case_name


def expected(plan: Plan, records: Records) -> set[str]:
    """Paths below data/ that generators.yaml makes (as the records of this run say)."""
    paths = {c.path for c in plan.cases}
    for rule in plan.dirs:
        prefix = f"{rule.path}/" if rule.path else ""
        paths |= {prefix + source.rsplit("/", 1)[-1] for source in rule.includes}
        if rule.test_group is not None:
            paths.add(f"{prefix}test_group")
    found = {f"{path}{ext}" for path in paths for ext in records.written(path)}
    return found | {f"{p}.yaml" for p in paths if p.endswith("test_group")}


def unrecorded(plan: Plan, records: Records) -> set[str]:
    """The cases generators.yaml makes that no run has made yet (their generator failed,
    as it may on a fresh clone): whatever files they have are theirs, never removed."""
    return {c.path for c in plan.cases if not records.written(c.path)}


def _stem(rel: str) -> str | None:
    folder, _, name = rel.rpartition("/")
    split = split_case_name(name)
    return None if split is None else f"{folder}/{split[0]}" if folder else split[0]


def extraneous(root: Path, plan: Plan, records: Records, clean: bool) -> list[Finding]:
    data = root / "data"
    if not data.is_dir():
        return []
    made, kept = expected(plan, records), unrecorded(plan, records)
    findings: list[Finding] = []
    for top, dirs, files in os.walk(data, topdown=True, followlinks=False):
        dirs[:] = [d for d in dirs if not d.startswith((".", "-"))]
        for name in sorted(files):
            if name.startswith((".", "-")):
                continue
            path = Path(top) / name
            rel = path.relative_to(data).as_posix()
            if rel in made or _stem(rel) in kept:
                continue
            if clean:
                path.unlink()
                findings.append(
                    warning(
                        "generators", "removed: generators.yaml does not make it", f"data/{rel}"
                    )
                )
            else:
                findings.append(
                    warning(
                        "generators",
                        "generators.yaml does not make this file (--clean removes it)",
                        f"data/{rel}",
                    )
                )
    if clean:
        _remove_empty(data)
    return findings


def _remove_empty(data: Path) -> None:
    for top, dirs, files in os.walk(data, topdown=False, followlinks=False):
        if Path(top) != data and not dirs and not files:
            with contextlib.suppress(OSError):  # (a file appeared meanwhile)
                os.rmdir(top)
