"""What upgradeproblem does for one package: plan the 2025-09 tree (deriving the time
limit when the package fixes none), write it (to ``-o``, in place, or for ``--dry-run``
into a scratch directory removed afterwards) and check what was written as 2025-09."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from problemtools_py.convert.versions.upgrade import Plan, plan_upgrade
from problemtools_py.errors import FatalError
from problemtools_py.findings import ProblemReport, error, warning
from problemtools_py.model import load_problem
from problemtools_py.verify.options import CHECK_PARTS


@dataclass(frozen=True)
class UpgradeOptions:
    """What upgradeproblem was asked: the time limit to write, and where to write."""

    time_limit: float | None = None  # the limit to write (None: derive one when needed)
    no_time_limit: bool = False  # write none, leave it to the multipliers
    force: bool = False  # write even where something cannot be mapped
    dry_run: bool = False  # write nothing: a diff, and the check of a scratch copy
    in_place: bool = False
    output: Path | None = None  # the directory the upgraded package goes in


def upgrade_one(path: Path, args: UpgradeOptions) -> tuple[ProblemReport, dict[str, Any]]:
    """The report (what cannot be mapped, and the check of what was written) and what
    was done, as ``--json`` gives it."""
    from problemtools_py.verify.verifier import derived_time_limit

    problem = load_problem(path)
    report = ProblemReport(problem.short_name, str(path), problem.format.value)
    made: dict[str, Any] = {
        "problem": problem.short_name,
        "path": str(path),
        "from": problem.format.value,
        "notes": [],
        "time_limit": None,
        "output": None,
    }
    if problem.released:
        return report, made
    limit = None
    if problem.declared_time_limit is None and not args.no_time_limit:
        limit = args.time_limit if args.time_limit is not None else derived_time_limit(path)
    plan = plan_upgrade(problem, limit)
    made["notes"] = [{"kind": n.kind, "path": n.path, "message": n.message} for n in plan.notes]
    made["time_limit"] = limit
    said = warning if args.force else error  # (forced: what was left out, said)
    report.findings += [said("upgrade", n.message, n.path) for n in plan.unmappable]
    if plan.unmappable and not args.force:
        return report, made  # nothing written
    target, checked = _write_checked(plan, path, args, made)
    report.findings += checked.findings
    if target is not None:
        report.path = made["output"] = str(target)  # (what was checked)
    return report, made


def _write_checked(
    plan: Plan, path: Path, args: UpgradeOptions, made: dict[str, Any]
) -> tuple[Path | None, ProblemReport]:
    """Where the package was written (None for a dry run), and its check."""
    from problemtools_py.convert.versions.upgrade_write import diff, write_in_place, write_new
    from problemtools_py.verify.verifier import verify_problem

    name = plan.problem.short_name
    if args.dry_run:
        made["diff"] = diff(plan)
        with tempfile.TemporaryDirectory(prefix="ptpy-upgrade-") as scratch:
            write_new(plan, Path(scratch) / name)
            return None, verify_problem(Path(scratch) / name, CHECK_PARTS)
    if args.in_place:
        write_in_place(plan)
        target = path
    else:
        if args.output is None:
            raise FatalError("upgradeproblem: say where: -o DIR, --in-place or --dry-run")
        target = args.output / name
        write_new(plan, target)
    return target, verify_problem(target, CHECK_PARTS)
