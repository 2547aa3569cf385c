"""Carrying out an upgrade :class:`~problemtools_py.convert.versions.upgrade.Plan`: a new package
directory (built beside it under a temporary name, renamed into place when complete), the
package itself (every new file staged first; then only renames and removals, so a failure
while writing leaves the package as it was), or a diff of what would change."""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from pathlib import Path

from problemtools_py.atomicfile import Pending
from problemtools_py.convert.versions.upgrade import Plan
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode


def _fail(why: str, path: Path | str) -> FatalError:
    return FatalError(why, path=path, exit_code=ExitCode.FINDINGS)


def check_sources(plan: Plan) -> None:
    """Only regular files inside the package are copied or moved."""
    root = plan.problem.root.resolve()
    for entry in plan.problem.files:
        if entry.is_symlink and not entry.link_ok:
            raise _fail(f"a symlink out of the package ({entry.link_target})", entry.rel)
        if entry.special:
            raise _fail("a FIFO, socket or device in the package", entry.rel)
    for rel, source in plan.files.items():
        if ".." in Path(rel).parts or Path(rel).is_absolute():
            raise _fail("a name that leaves the package", rel)
        if isinstance(source, bytes):
            continue
        path = root / source
        if path.is_symlink():
            target = path.resolve()
            if not target.is_relative_to(root) or not target.is_file():
                raise _fail(f"a symlink out of the package ({os.readlink(path)})", source)
        elif not path.is_file():
            raise _fail("not a regular file", source)


def write_new(plan: Plan, target: Path) -> None:
    """The upgraded package as ``target`` (which must not exist)."""
    if target.exists() or target.is_symlink():
        raise _fail("exists already: remove it or give another -o", target)
    check_sources(plan)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for rel, source in sorted(plan.files.items()):
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(source, bytes):
                path.write_bytes(source)
            else:
                shutil.copy2(plan.problem.root / source, path)  # (a link inside: its file)
        staging.chmod(0o755)
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def write_in_place(plan: Plan) -> None:
    """The package itself becomes the upgraded one."""
    check_sources(plan)
    root = plan.problem.root
    staged: dict[str, Pending] = {}  # (new files written whole before anything moves)
    try:
        for rel, source in plan.files.items():
            if isinstance(source, bytes):
                staged[rel] = pending = Pending(root / rel, beside=root)
                with os.fdopen(pending.fd, "wb") as out:
                    out.write(source)
    except BaseException:
        for pending in staged.values():
            pending.discard()
        raise
    kept = {source for source in plan.files.values() if isinstance(source, str)}
    for rel, source in plan.files.items():  # moves (copies of what stays), then new files
        if isinstance(source, str) and source != rel:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            if plan.files.get(source) == source:
                shutil.copy2(root / source, root / rel)
            else:
                os.rename(root / source, root / rel)
    for rel, pending in staged.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        pending.commit()
    for entry in plan.problem.files:  # what the new package no longer has
        if not entry.is_dir and entry.rel not in kept and entry.rel not in plan.files:
            (root / entry.rel).unlink(missing_ok=True)
    for rel in plan.dropped:
        (root / rel).unlink(missing_ok=True)
    _prune_empty(root, plan)


def _prune_empty(root: Path, plan: Plan) -> None:
    for entry in sorted(plan.problem.files, key=lambda e: -e.rel.count("/")):
        path = root / entry.rel
        if entry.is_dir and path.is_dir() and not path.is_symlink() and not any(path.iterdir()):
            path.rmdir()


def diff(plan: Plan) -> str:
    """What the upgrade changes: moves, removals, and each new or rewritten text as a
    unified diff."""
    root = plan.problem.root
    lines: list[str] = []
    used = set()
    for rel, source in sorted(plan.files.items()):
        if isinstance(source, str):
            used.add(source)
            if source != rel:
                lines.append(f"rename {source} -> {rel}\n")
            continue
        old_path = root / rel
        old = old_path.read_text(encoding="utf-8") if old_path.is_file() else ""
        new = source.decode("utf-8")
        if old != new:
            before = f"a/{rel}" if old_path.is_file() else "/dev/null"
            old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
            lines += difflib.unified_diff(old_lines, new_lines, before, f"b/{rel}")
    for entry in plan.problem.files:
        if not entry.is_dir and entry.rel not in used and entry.rel not in plan.files:
            lines.append(f"delete {entry.rel}\n")
    lines += [f"delete {rel}\n" for rel in plan.dropped]
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
