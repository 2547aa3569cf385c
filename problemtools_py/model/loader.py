"""Load a problem package directory into the frozen :class:`Problem` model, once."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode
from problemtools_py.model.config import V2023_VERSIONS, V2025_VERSIONS, build_config
from problemtools_py.model.entrypoints import read_entry_points
from problemtools_py.model.files import FileEntry, walk_package
from problemtools_py.model.names import NameRule, name_rule
from problemtools_py.model.problem import FormatVersion, IncludeDir, Problem, Program
from problemtools_py.model.programs import load_programs, load_submissions, make_program
from problemtools_py.model.settings import group_settings, problem_grading, read_timelimit
from problemtools_py.model.sidecar import SIDECARS
from problemtools_py.model.statements import load_statements
from problemtools_py.model.testdata import MODERN_GROUP_FILES, RELEASED_GROUP_FILES, load_group
from problemtools_py.yamlfile import YamlDoc, load_yaml

STATEMENT_DIRS = {
    FormatVersion.LEGACY: "problem_statement",
    FormatVersion.V2023_07: "statement",
    FormatVersion.V2025_09: "statement",
}


def format_of(doc: YamlDoc) -> tuple[FormatVersion, str | None]:
    """The format version a problem.yaml declares (absent means legacy). An unknown
    value reads as legacy; the config checks report it."""
    declared = doc.data.get("problem_format_version") if isinstance(doc.data, dict) else None
    text = str(declared) if declared is not None else None
    if text in V2023_VERSIONS:
        return FormatVersion.V2023_07, text
    if text in V2025_VERSIONS:
        return FormatVersion.V2025_09, text
    return FormatVersion.LEGACY, text


def split_auxiliary(
    files: tuple[FileEntry, ...], rule: NameRule
) -> tuple[tuple[FileEntry, ...], tuple[str, ...]]:
    """The package's entries and, where the version's text has auxiliary files (see
    names.py), those taken out (the topmost of each auxiliary tree: ``.git``'s contents
    are not listed one by one)."""
    if not rule.auxiliary:
        return files, ()
    kept: list[FileEntry] = []
    auxiliary: list[str] = []
    for entry in files:
        parts = entry.rel.split("/")
        bad = next((i for i, part in enumerate(parts) if not rule.allows(part)), None)
        if bad is None:
            kept.append(entry)
        elif bad == len(parts) - 1:
            auxiliary.append(entry.rel)
    return tuple(kept), tuple(auxiliary)


def _children(files: tuple[FileEntry, ...]) -> dict[str, list[FileEntry]]:
    children: dict[str, list[FileEntry]] = {}
    for entry in files:
        parent = entry.rel.rsplit("/", 1)[0] if "/" in entry.rel else ""
        children.setdefault(parent, []).append(entry)
    return children


def _include_dirs(
    children: dict[str, list[FileEntry]], files: tuple[FileEntry, ...]
) -> tuple[IncludeDir, ...]:
    result = []
    for entry in children.get("include", []):
        if entry.is_dir:
            own = tuple(f.rel for f in files if f.rel.startswith(entry.rel + "/") and not f.is_dir)
            result.append(IncludeDir(entry.name, entry.rel, own))
    return tuple(result)


def load_problem(path: Path | str) -> Problem:
    """Read the package at ``path``. Raises :class:`FatalError` when ``path`` is not a
    directory or a file cannot be read; everything else wrong inside the package is left
    for the checks to report."""
    root = Path(path)
    if not root.is_dir():
        raise FatalError("not a problem package directory (no such directory)", path=root)
    try:
        return _load(root.resolve())
    except OSError as exc:
        where = exc.filename or root
        raise FatalError(
            f"cannot read: {exc.strerror or exc}", path=where, exit_code=ExitCode.FINDINGS
        ) from exc


def _load(root: Path) -> Problem:
    doc = load_yaml(root / "problem.yaml", "problem.yaml")
    fmt, declared = format_of(doc)
    files, auxiliary = split_auxiliary(walk_package(root), name_rule(fmt, declared))
    children = _children(files)
    modern = fmt is not FormatVersion.LEGACY
    config = build_config(doc, modern)
    statement_dir = STATEMENT_DIRS[fmt]
    statements = load_statements(root, children.get(statement_dir, []))
    if not config.names:
        names = {s.lang: s.problemname for s in statements if s.problemname}
        config = replace(config, names={k: v for k, v in names.items() if v})
    group_files = RELEASED_GROUP_FILES if fmt is FormatVersion.V2025_09 else MODERN_GROUP_FILES
    data = (
        load_group(root, "data", children, modern, group_files)
        if (root / "data").is_dir()
        else None
    )
    subs_yaml = load_yaml(root / "submissions" / "submissions.yaml", "submissions/submissions.yaml")
    submissions, categories = load_submissions(root, children, files, config, modern, subs_yaml)
    in_dirs: tuple[str, ...] = ("input_validators",)
    if modern:
        out = tuple(p for p in [_single(root, "output_validator", files)] if p is not None)
    else:
        in_dirs = ("input_validators", "input_format_validators")
        out = load_programs(root, "output_validators", children, files)
        if not out and "output_validator" in children:  # (DOMjudge's reading)
            out = tuple(p for p in [_single(root, "output_validator", files)] if p is not None)
    return Problem(
        root=root,
        short_name=root.name,
        format=fmt,
        format_declared=declared,
        yaml=doc,
        config=config,
        files=files,
        statements=statements,
        statement_dir=statement_dir if (root / statement_dir).is_dir() else None,
        data=data,
        include_dirs=_include_dirs(children, files),
        input_validators=tuple(p for d in in_dirs for p in load_programs(root, d, children, files)),
        output_validators=out,
        graders=load_programs(root, "graders", children, files),
        submissions=submissions,
        submission_categories=categories,
        submissions_yaml=subs_yaml,
        dataset_export=_dataset_export(root),
        group_settings=group_settings(data, None if modern else problem_grading(doc.data)),
        timelimit_file=read_timelimit(root),
        auxiliary=auxiliary,
        answer_validators=load_programs(root, "answer_validators", children, files),
        domjudge_entry_points=read_entry_points(root),
        static_validator=_single(root, "static_validator", files) if modern else None,
        input_visualizer=_single(root, "input_visualizer", files) if modern else None,
        output_visualizer=_single(root, "output_visualizer", files) if modern else None,
    )


def _single(root: Path, rel: str, files: tuple[FileEntry, ...]) -> Program | None:
    """A top-level directory that is one program (2023-07 and later: output_validator/,
    static_validator/, the visualizers), or None when the package has none."""
    entry = next((e for e in files if e.rel == rel), None)
    return make_program(root, entry, files) if entry is not None else None


def find_sidecar(root: Path) -> Path | None:
    """The sidecar of a package parquet2kattis wrote, or None."""
    for name in SIDECARS:
        path = root / name
        if path.is_file() and not path.is_symlink():
            return path
    return None


def _dataset_export(root: Path) -> dict[str, object] | None:
    """parquet2kattis' sidecar, when this package came from the dataset."""
    path = find_sidecar(root)
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) else None
