"""What problem2zip makes: a zip per problem (or its samples), or one for a problem set,
each checked after writing; the choice of contents per ``--format``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from problemtools_py.convert.zips.zipfiles import Entry
from problemtools_py.errors import FatalError
from problemtools_py.findings import Finding, ProblemReport, RunReport, warning
from problemtools_py.model.problem import Problem
from problemtools_py.verify.options import CHECK_PARTS


@dataclass(frozen=True)
class ZipOptions:
    """What problem2zip was asked: the packages, where to write, and how."""

    problems: list[Path]
    output: Path
    format: str = "2025-09"  # 2025-09, kattis, legacy or domjudge
    samples: bool = False  # the samples only
    force: bool = False  # legacy: write without what cannot be said
    pdf: bool = True  # 2025-09/kattis: the statement as a PDF beside the zip
    contest_name: str | None = None  # --problemset: the contest's name


def _target(out: Path, name: str, many: bool, samples: bool) -> Path:
    if not many and out.suffix == ".zip":
        return out
    return out / (f"{name}-samples.zip" if samples else f"{name}.zip")


def _entries(
    problem: Problem, path: Path, base: str, args: ZipOptions
) -> tuple[list[Entry], list[Finding], list[str]]:
    """The zip entries of one problem under ``base/`` (samples: at the top), what was
    said about it, and what a legacy zip leaves out harmlessly."""
    from problemtools_py.convert.zips.contents import (
        legacy_entries,
        package_entries,
        sample_entries,
    )

    if args.samples:
        return sample_entries(problem), [], []
    if args.format in ("legacy", "domjudge"):
        domjudge = args.format == "domjudge"
        limit = _limit(problem, path, always=domjudge)
        return legacy_entries(problem, base, args.force, limit, domjudge)
    return package_entries(problem, base, constants=args.format == "kattis"), [], []


def each_zip(args: ZipOptions) -> tuple[RunReport, list[dict[str, Any]]]:
    from problemtools_py.convert.zips.zipfiles import write_zip
    from problemtools_py.model import load_problem
    from problemtools_py.verify.verifier import verify_problem

    many = len(args.problems) > 1
    if many and args.output.suffix == ".zip":
        raise FatalError("several problems: -o names a directory, not a .zip (or --problemset)")
    run, written = RunReport(), []
    for path in args.problems:
        problem = load_problem(path)
        target = _target(args.output, problem.short_name, many, args.samples)
        # (the zip's base name is the problem's short name: its one directory)
        entries, notes, left_out = _entries(problem, path, target.name.removesuffix(".zip"), args)
        count = write_zip(target, entries) if entries else 0
        report = (
            verify_problem(target, CHECK_PARTS)
            if not args.samples and entries
            else ProblemReport(problem.short_name, str(path))
        )
        report.findings[:0] = notes
        run.problems.append(report)
        zipped = str(target) if entries else None
        made = {"problem": problem.short_name, "zip": zipped, "entries": count, "pdf": None,
                "left_out": left_out}  # fmt: skip
        if entries and args.format in ("2025-09", "kattis") and not args.samples and args.pdf:
            made["pdf"] = _pdf_beside(problem, target, report)
        written.append(made)
    return run, written


def _pdf_beside(problem: Problem, target: Path, report: ProblemReport) -> str | None:
    """The statement as a PDF beside the zip (``<name>.pdf``), or a warning why not."""
    from problemtools_py import atomicfile
    from problemtools_py.convert.zips.prebuilt import statement_pdf

    pdf, why = statement_pdf(problem)
    if pdf is None:
        report.findings.append(warning("statement", f"no PDF beside the zip: {why}"))
        return None
    beside = target.with_suffix(".pdf")
    atomicfile.write_bytes(beside, pdf)
    return str(beside)


def problemset_zip(args: ZipOptions) -> tuple[RunReport, list[dict[str, Any]]]:
    """One zip: contest.yaml, problems.yaml and each problem in <id>/; nothing is written
    when any problem cannot go in. Each problem is checked from the zip written."""
    from problemtools_py.convert.zips.problemset import problemset_files
    from problemtools_py.convert.zips.zipfiles import write_zip
    from problemtools_py.model import load_problem

    if args.samples or args.output.suffix != ".zip":
        raise FatalError("--problemset writes one zip of packages: -o names a .zip")
    problems = [load_problem(path) for path in args.problems]
    run, entries, left_out = RunReport(), [], []
    for problem, path in zip(problems, args.problems, strict=True):
        found, notes, dropped = _entries(problem, path, problem.short_name, args)
        left_out += [f"{problem.short_name}/{what}" for what in dropped]
        run.problems.append(ProblemReport(problem.short_name, str(path), findings=list(notes)))
        entries += found if found else []
    if any(report.errors for report in run.problems):
        return run, [{"problem": p.short_name, "zip": None, "entries": 0} for p in problems]
    extra = problemset_files(problems, args.contest_name)
    entries += [Entry(name, data) for name, data in extra.items()]
    count = write_zip(args.output, entries)
    _check_set(args.output, run)
    made = {"problem": "problemset", "zip": str(args.output), "entries": count}
    return run, [{**made, "left_out": left_out}]


def _check_set(target: Path, run: RunReport) -> None:
    import tempfile
    import zipfile

    from problemtools_py.verify.verifier import verify_problem

    with tempfile.TemporaryDirectory(prefix="ptpy-set-") as tmp, zipfile.ZipFile(target) as zf:
        zf.extractall(tmp)  # (our own zip, just written: names checked when made)
        for report in run.problems:
            checked = verify_problem(Path(tmp) / report.name, CHECK_PARTS)
            report.findings += checked.findings
            report.path = f"{target}/{report.name}"


def _limit(problem: Problem, path: Path, always: bool) -> float | None:
    """The time limit to fix: where legacy's rule (whole seconds) would derive another,
    or ``always`` (DOMjudge takes no rule, only a limit), the one the package declares
    or its accepted submissions' runs give."""
    from problemtools_py.verify.verifier import derived_time_limit

    declared = problem.declared_time_limit
    if declared is not None and declared.seconds is not None:
        return None  # (it stays: .timelimit, or limits.time_limit becomes one)
    if not always and (problem.legacy or problem.config.limits.time_resolution == 1):
        return None  # (the same rule: ceil(slowest * multiplier) whole seconds)
    return derived_time_limit(path)
