"""What goes into a zip: a package as it stands (its auxiliary files left out, links
inside it followed, anything leaving it refused), or the contestants' samples (the files
offered for download: ``.in.download``/``.ans.download`` over ``.in``/``.ans``)."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TYPE_CHECKING

from problemtools_py.convert.zips.zipfiles import Entry
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode, Finding, error, warning
from problemtools_py.model.constants import substitute_bytes
from problemtools_py.model.problem import Problem

if TYPE_CHECKING:
    from problemtools_py.convert.versions.upgrade import Plan

MAX_BYTES = 4 << 30  # a package larger than this is refused


def _refuse(why: str, rel: str) -> FatalError:
    return FatalError(why, path=rel, exit_code=ExitCode.FINDINGS)


SUBSTITUTED = ("statement/", "input_validators/", "output_validator/", "include/",
               "submissions/")  # fmt: skip


def _substituted(problem: Problem, rel: str, data: bytes) -> bytes:
    """The file with its constants replaced, where the 2025-09 text says they are (and in
    LaTeX statements' ``\\constant``), for a judge that does not replace them itself."""
    if rel.startswith(SUBSTITUTED) or rel.endswith("/test_group.yaml"):
        return substitute_bytes(data, problem.constants, latex=True)
    return data


def package_entries(
    problem: Problem, name: str | None = None, constants: bool = False
) -> list[Entry]:
    """Every file of the package under ``<name>/`` (the zip's base name, which is the
    problem's short name; by default its directory's) (2025-09: its auxiliary files are
    not among the model's files). A symlink is followed when it
    stays inside the package; one that leaves it (or dangles), and a FIFO or device,
    make the package refused, with the file named. With ``constants``, constants are
    substituted where the format says."""
    entries: list[Entry] = []
    total = 0
    root = problem.root
    for entry in problem.files:
        if entry.is_dir and not entry.is_symlink:
            continue
        if entry.special:
            raise _refuse("a FIFO, socket or device cannot go into a zip", entry.rel)
        if entry.is_symlink and not entry.link_ok:
            raise _refuse(f"a symlink out of the package ({entry.link_target})", entry.rel)
        path = root / entry.rel
        if path.is_dir():
            continue  # (a link to a directory inside: its files are listed themselves)
        data = path.read_bytes()
        total += len(data)
        if total > MAX_BYTES:
            raise _refuse("the package is over 4 GiB", entry.rel)
        executable = bool(path.stat().st_mode & stat.S_IXUSR)
        data = _substituted(problem, entry.rel, data) if constants else data
        entries.append(Entry(f"{name or problem.short_name}/{entry.rel}", data, executable))
    return entries


def sample_entries(problem: Problem) -> list[Entry]:
    """The samples as contestants download them, named by their case."""
    group = problem.data.child("sample") if problem.data is not None else None
    entries: list[Entry] = []
    for case in group.all_cases() if group is not None else ():
        name = case.name.removeprefix("sample/")
        given, said = case.downloaded(not problem.legacy)
        for rel, ext in ((given, ".in"), (said, ".ans")):
            if rel is not None:
                path: Path = problem.root / rel
                entries.append(Entry(f"{name}{ext}", path.read_bytes()))
    return entries


def legacy_entries(
    problem: Problem,
    name: str,
    force: bool,
    time_limit: float | None = None,
    domjudge: bool = False,
) -> tuple[list[Entry], list[Finding], list[str]]:
    """The package downgraded to legacy (see :mod:`.downgrade`), what was said about it,
    and what it leaves out harmlessly (``path: why``, for the command to show): what
    legacy cannot say is an error (and no entries) unless ``force`` (a warning, and it is
    left out). For ``domjudge``: claims as ``@EXPECTED_RESULTS@`` tags, and the statement
    prebuilt."""
    from problemtools_py.convert.versions.downgrade import plan_downgrade

    plan = plan_downgrade(problem, time_limit, tag_claims=domjudge)
    said = warning if force else error
    notes = [said("downgrade", n.message, n.path) for n in plan.unmappable]
    left_out = [f"{n.path}: {n.message}" for n in plan.notes if n.kind == "dropped"]
    if plan.unmappable and not force:
        return [], notes, left_out
    if plan.already:  # (legacy already: as it stands, with the limit it should fix)
        entries = package_entries(problem, name)
        if time_limit is not None:
            entries.append(Entry(f"{name}/.timelimit", f"{time_limit:g}\n".encode()))
    else:
        entries = _planned(plan, name)
    if domjudge:
        from problemtools_py.convert.zips.prebuilt import prebuilt_statements

        built, said_more = prebuilt_statements(problem)
        entries += [Entry(f"{name}/{rel}", data) for rel, data in built.items()]
        notes += said_more
    return entries, notes, left_out


def _planned(plan: Plan, name: str) -> list[Entry]:
    from problemtools_py.convert.versions.upgrade_write import check_sources

    check_sources(plan)
    entries = []
    for rel, source in sorted(plan.files.items()):
        if isinstance(source, str):
            path = plan.problem.root / source
            data, executable = path.read_bytes(), bool(path.stat().st_mode & stat.S_IXUSR)
        else:
            data, executable = source, False
        entries.append(Entry(f"{name}/{rel}", data, executable))
    return entries
