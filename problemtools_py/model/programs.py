"""Loading programs: validators, graders and submissions (a file or a directory each)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from problemtools_py.hints import closest
from problemtools_py.model import expectations
from problemtools_py.model.config import ProblemConfig
from problemtools_py.model.files import IGNORED_NAMES, FileEntry
from problemtools_py.model.language_codes import language_of_program
from problemtools_py.model.problem import Program, Submission, Tag
from problemtools_py.yamlfile import YamlDoc

_MAX_SOURCE = 1 << 20
ALL_CATEGORIES = frozenset(expectations.LEGACY_DIRS) | frozenset(expectations.MODERN_DIRS)


def _head(path: Path, limit: int = _MAX_SOURCE) -> str:
    try:
        with path.open("rb") as handle:
            return handle.read(limit).decode("utf-8", errors="replace")
    except OSError:
        return ""


def _first_line(path: Path) -> str:
    return _head(path, 256).split("\n", 1)[0]


def files_below(entry: FileEntry, files: tuple[FileEntry, ...]) -> tuple[str, ...]:
    """The readable files of a program (itself, or everything below its directory)."""
    if not entry.is_dir:
        return (entry.rel,) if entry.readable else ()
    prefix = entry.rel + "/"
    return tuple(f.rel for f in files if f.rel.startswith(prefix) and f.readable)


def make_program(root: Path, entry: FileEntry, files: tuple[FileEntry, ...]) -> Program:
    own = files_below(entry, files)
    names = [(rel.rsplit("/", 1)[-1], _first_line(root / rel)) for rel in own]
    base = {n for n, _ in names}
    stem = entry.name if entry.is_dir else entry.name.split(".", 1)[0] or entry.name
    return Program(
        name=stem,
        rel=entry.rel,
        is_dir=entry.is_dir,
        files=own,
        language=language_of_program(names),
        has_build=entry.is_dir and "build" in base,
        has_run=entry.is_dir and "run" in base,
    )


# A validator written in one of these (every file of it so named) is no program of a
# language: the format's input validators may be checktestdata or VIVA files.
VALIDATOR_FORMATS = {".ctd": "checktestdata", ".viva": "viva"}
# Loose files beside the programs of a directory that are no program themselves: a header
# its C or C++ programs include (testlib.h beside checker.cpp, the common layout), notes.
HEADERS = (".h", ".hh", ".hpp", ".hxx")
NOTES = (".txt", ".md")
NOTE_NAMES = ("README", "LICENSE", "LICENCE")  # (any case, any extension)


def validator_format(program: Program) -> str | None:
    """``checktestdata`` or ``viva`` for a validator written in one, else None."""
    for ext, name in VALIDATOR_FORMATS.items():
        if program.files and all(f.endswith(ext) for f in program.files):
            return name
    return None


def _loose(entry: FileEntry) -> str | None:
    """``header`` or ``note`` for a loose file that is no program, else None."""
    if entry.is_dir:
        return None
    if entry.name.endswith(HEADERS):
        return "header"
    if entry.name.upper().startswith(NOTE_NAMES) or entry.name.lower().endswith(NOTES):
        return "note"
    return None


def load_programs(
    root: Path, rel: str, children: dict[str, list[FileEntry]], files: tuple[FileEntry, ...]
) -> tuple[Program, ...]:
    """The programs of a directory: each entry one, but the headers beside C and C++
    programs (given to each of them as one of its files) and notes (not programs)."""
    entries = [
        e
        for e in children.get(rel, [])
        if e.name not in IGNORED_NAMES and not e.name.startswith(".")
    ]
    programs = [make_program(root, e, files) for e in entries if _loose(e) is None]
    headers = tuple(e.rel for e in entries if _loose(e) == "header")
    built = [p for p in programs if not p.is_dir and p.language in ("c", "cpp")]
    if headers and built:
        programs = [replace(p, files=p.files + headers) if p in built else p for p in programs]
    elif headers:  # (no program to give them to: each is judged as it is)
        programs += [make_program(root, e, files) for e in entries if _loose(e) == "header"]
    return tuple(programs)


def uses_standard_dirs(names: Iterable[str]) -> bool:
    """Legacy: whether the directories below ``submissions/`` (``names``) include the
    format's; another directory beside them is then another tool's (mixed/, rejected/),
    never a program of the seed's flat layout."""
    return any(name in expectations.LEGACY_DIRS for name in names)


def is_seed_program_dir(entry: FileEntry, children: dict[str, list[FileEntry]]) -> bool:
    """A directory directly in ``submissions/`` that is one program (the seed's flat layout)
    rather than a category: it holds source files directly and is not named like one."""
    if entry.name in ALL_CATEGORIES:
        return False
    if closest(entry.name.lower(), ALL_CATEGORIES, cutoff=0.75):
        return False
    inside = children.get(entry.rel, [])
    return any(not e.is_dir for e in inside) and not any(e.is_dir for e in inside)


def _submission(
    root: Path,
    entry: FileEntry,
    category: str | None,
    files: tuple[FileEntry, ...],
    config: ProblemConfig,
    modern: bool,
    rules: YamlDoc,
) -> Submission:
    program = make_program(root, entry, files)
    tags: list[Tag] = []
    for rel in program.files:
        tags.extend(expectations.find_tags(_head(root / rel), rel))
    expectation, problems = expectations.resolve(category, tags, modern, config.scoring)
    if modern:
        expectation = expectations.apply_rules(expectation, program.rel, rules)
    return Submission(program, category, tuple(tags), expectation, tuple(problems))


def load_submissions(
    root: Path,
    children: dict[str, list[FileEntry]],
    files: tuple[FileEntry, ...],
    config: ProblemConfig,
    modern: bool,
    rules: YamlDoc,
) -> tuple[tuple[Submission, ...], tuple[str, ...]]:
    """All submissions, and the names of the category directories found."""
    subs: list[Submission] = []
    categories: list[str] = []
    entries = children.get("submissions", [])
    # Legacy: where the standard directories are used, another directory is no program of
    # the seed's flat layout but another tool's (BAPCtools' and DOMjudge's mixed/,
    # rejected/, problemtools' slow_accepted/): its programs with an @EXPECTED_RESULTS@
    # tag are judged by it, as DOMjudge judges them; the others (problemtools reads none
    # of them) are not judged, never taken for accepted ones.
    standard = not modern and uses_standard_dirs(e.name for e in entries if e.is_dir)
    for entry in entries:
        if entry.name in IGNORED_NAMES or entry.name.startswith(".") or entry.is_symlink:
            continue
        if entry.is_dir and (modern or standard or not is_seed_program_dir(entry, children)):
            categories.append(entry.name)
            foreign = standard and entry.name not in expectations.LEGACY_DIRS
            for inner in children.get(entry.rel, []):
                if inner.name in IGNORED_NAMES or inner.name.startswith("."):
                    continue
                sub = _submission(root, inner, entry.name, files, config, modern, rules)
                if sub.tags or not foreign:
                    subs.append(sub)
        elif entry.name != "submissions.yaml":
            subs.append(_submission(root, entry, None, files, config, modern, rules))
    return tuple(subs), tuple(categories)
