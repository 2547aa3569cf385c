"""Loading ``data/`` into test groups and test cases (files grouped by base name)."""

from __future__ import annotations

from collections.abc import Collection
from enum import Enum
from pathlib import Path

from problemtools_py.model.files import FileEntry
from problemtools_py.model.problem import TestCase, TestGroup
from problemtools_py.yamlfile import YamlDoc, load_yaml

# Each file a test case may have (spec/legacy.md "Test data" and spec/2025-09.md's table
# of test-case files; BAPCtools' generators.yaml for what generators write), and where:
#   legacy: part of the legacy format
#   modern: from 2023-07 on "yes", "sample" (samples only, and .out for the groups about
#           outputs), "moved" (became a key of <case>.yaml: warned), "no"
#   made:   a generators.yaml case may give or write it (BAPCtools adds .pdf, the format .jpeg)
#   data:   bytes programs read (encodings warn, never fail, on them)
CASE_FILES = (
    # extension         legacy  modern    made   data
    (".in",             True,   "yes",    True,  True),
    (".ans",            True,   "yes",    True,  True),
    (".out",            False,  "sample", True,  True),
    (".in.statement",   False,  "sample", True,  False),
    (".ans.statement",  False,  "sample", True,  False),
    (".in.download",    False,  "sample", True,  False),
    (".ans.download",   False,  "sample", True,  False),
    (".interaction",    True,   "yes",    True,  True),
    (".yaml",           False,  "yes",    True,  False),
    (".desc",           True,   "moved",  False, False),
    (".hint",           True,   "moved",  False, False),
    (".args",           False,  "no",     False, False),  # (an old draft's: grouped, warned)
    (".png",            True,   "yes",    True,  False),
    (".jpg",            True,   "yes",    True,  False),
    (".jpeg",           True,   "yes",    True,  False),
    (".svg",            True,   "yes",    True,  False),
    (".pdf",            False,  "no",     True,  False),  # (BAPCtools' visualizers write it)
    (".files",          False,  "yes",    False, False),  # (a directory)
)  # fmt: skip
# Longest first, so "x.in.statement" is case "x" with extension ".in.statement".
CASE_EXTENSIONS = tuple(sorted((row[0] for row in CASE_FILES), key=lambda e: -e.count(".")))
SAMPLE_ONLY = frozenset(row[0] for row in CASE_FILES if row[2] == "sample")
MADE_EXTENSIONS = tuple(row[0] for row in CASE_FILES if row[3])  # (in the table's order)
DATA_EXTENSIONS = tuple(row[0] for row in CASE_FILES if row[4])


_ALLOWED = {
    True: frozenset(row[0] for row in CASE_FILES if row[1]),  # (legacy)
    False: frozenset(row[0] for row in CASE_FILES if row[2] != "no"),
}


def case_extensions(legacy: bool) -> frozenset[str]:
    """The extensions a test case's files may have in a package of this kind (a modern
    package's ``moved`` ones are allowed, with their own warning)."""
    return _ALLOWED[legacy]


# The groups submissions are judged on, in this order, and (2023-07 on) those that only
# hold cases for the validators. Asked for everywhere through the functions below, by a
# group's or case's name ("secret/g1/02" belongs to "secret").
JUDGED_GROUPS = ("sample", "secret")
VALIDATION_GROUPS = ("invalid_input", "invalid_output", "valid_output")
# Every directory a package may have under data/, in the order generators.yaml makes
# them, and whether legacy packages have it: the format's (the spec's "Test data" tables:
# the judged ones; from 2023-07 on, the validators' three) and BAPCtools' own that this
# project reads and generatedata makes (invalid_answer: answers its answer_validators/
# must reject; testing_tool_test: inputs for the testing tool), no part of the format's.
DATA_DIRECTORIES = (("sample", True), ("secret", True), ("invalid_output", False),
                    ("invalid_answer", False), ("invalid_input", False),
                    ("valid_output", False), ("testing_tool_test", False))  # fmt: skip


def data_directories(legacy: bool) -> tuple[str, ...]:
    """The directories a package of this kind may have under data/ (DATA_DIRECTORIES)."""
    return tuple(name for name, in_legacy in DATA_DIRECTORIES if in_legacy or not legacy)


def top_group(name: str) -> str:
    """The directory under ``data/`` a group or case name lies in."""
    return name.split("/")[0]


def is_sample(name: str) -> bool:
    """Whether the group or case ``name`` (its path under ``data/``) lies in data/sample."""
    return top_group(name) == "sample"


def is_judged(name: str) -> bool:
    """Whether the group or case ``name`` is judged (it lies in sample or secret)."""
    return top_group(name) in JUDGED_GROUPS


def is_for_validation(name: str) -> bool:
    """Whether the group or case ``name`` holds cases only for the validators."""
    return top_group(name) in VALIDATION_GROUPS


class GroupKind(Enum):
    """What the directory under ``data/`` a case lies in is for."""

    JUDGED = "judged"  # sample, secret: submissions are judged on them
    INVALID_INPUT = "invalid_input"  # inputs every input validator must reject
    INVALID_OUTPUT = "invalid_output"  # outputs the output validator must reject
    VALID_OUTPUT = "valid_output"  # outputs the output validator must accept
    INVALID_ANSWER = "invalid_answer"  # BAPCtools': answers its answer validators reject
    OTHER = "other"  # any other directory: no part of the format's

    @classmethod
    def of(cls, name: str) -> GroupKind:
        """The kind of the group or case ``name`` (``secret/g1/02`` is JUDGED)."""
        top = top_group(name)
        if top in JUDGED_GROUPS:
            return cls.JUDGED
        return cls(top) if top in (*VALIDATION_GROUPS, "invalid_answer") else cls.OTHER


ALL_KINDS = frozenset(GroupKind)
VALIDATION_KINDS = frozenset(GroupKind(name) for name in VALIDATION_GROUPS)
OUTPUT_KINDS = frozenset({GroupKind.INVALID_OUTPUT, GroupKind.VALID_OUTPUT})  # (hold outputs)


def sample_only_here(ext: str, case_name: str) -> bool:
    """Whether ``ext`` is a samples-only file (2023-07 on) where ``case_name`` lies: out of
    data/sample, but for the .out of the groups about outputs."""
    if ext not in SAMPLE_ONLY or is_sample(case_name):
        return False
    return not (ext == ".out" and GroupKind.of(case_name) in OUTPUT_KINDS)


def cases_in(
    data: TestGroup | None, kinds: Collection[GroupKind], needs: Collection[str]
) -> list[TestCase]:
    """The cases of the groups of ``kinds`` that have every file extension in ``needs``
    (``.in``, ``.ans``), in the package's order: the one way a part picks its cases."""
    if data is None:
        return []
    return [
        case
        for group in data.walk()
        if GroupKind.of(group.name) in kinds
        for case in group.cases
        if all(ext in case.files for ext in needs)
    ]


LEGACY_GROUP_FILE = "testdata.yaml"
MODERN_GROUP_FILES = ("test_group.yaml", "testdata.yaml")  # the drafts read either
RELEASED_GROUP_FILES = ("test_group.yaml",)  # 2025-09: only this one


def group_files(legacy: bool) -> tuple[str, ...]:
    """The names a test group's settings file may have (2025-09 warns about the drafts'
    name: see checks.testdata_modern)."""
    return (LEGACY_GROUP_FILE,) if legacy else MODERN_GROUP_FILES


def split_case_name(name: str) -> tuple[str, str] | None:
    """``("03", ".in")`` for ``03.in``; None when no test-case extension applies."""
    for ext in CASE_EXTENSIONS:
        if name.endswith(ext) and len(name) > len(ext):
            return name[: -len(ext)], ext
    return None


def _group_config(root: Path, rel: str, names: tuple[str, ...]) -> YamlDoc:
    for name in names:
        doc = load_yaml(root / rel / name, f"{rel}/{name}")
        if doc.exists:
            return doc
    return YamlDoc(root / rel / names[0], f"{rel}/{names[0]}", False)


def _case_config(root: Path, files: dict[str, str]) -> YamlDoc | None:
    rel = files.get(".yaml")
    return load_yaml(root / rel, rel) if rel else None


def load_group(
    root: Path,
    rel: str,
    children: dict[str, list[FileEntry]],
    modern: bool,
    group_files: tuple[str, ...] = MODERN_GROUP_FILES,
) -> TestGroup:
    """The group at ``rel`` (``data`` or below), with its cases and subgroups; its
    settings from the first of ``group_files`` there is (modern versions)."""
    name = rel[len("data/") :] if rel != "data" else ""
    config = _group_config(root, rel, group_files if modern else (LEGACY_GROUP_FILE,))
    config_names = {config.rel.rsplit("/", 1)[-1], *MODERN_GROUP_FILES, LEGACY_GROUP_FILE}
    entries = children.get(rel, [])
    stems = {split[0] for e in entries if not e.is_dir and (split := split_case_name(e.name))}
    cases: dict[str, dict[str, str]] = {}
    groups: list[TestGroup] = []
    other: list[str] = []
    for entry in entries:
        if (entry.name in config_names and not entry.is_dir) or not entry.usable:
            continue  # (a link out of the package, a FIFO: checks/layout.py reports it)
        split = split_case_name(entry.name)
        if entry.is_dir and not (split and split[1] == ".files" and split[0] in stems):
            groups.append(load_group(root, entry.rel, children, modern, group_files))
        elif split is not None and rel != "data":
            cases.setdefault(split[0], {})[split[1]] = entry.rel
        else:
            other.append(entry.rel)
    prefix = f"{name}/" if name else ""
    built = tuple(
        TestCase(prefix + stem, name, files, _case_config(root, files) if modern else None)
        for stem, files in sorted(cases.items())
    )
    return TestGroup(
        name=name,
        rel=rel,
        config=config,
        cases=built,
        groups=tuple(groups),
        other_files=tuple(other),
    )


def legacy_items(group: TestGroup) -> list[TestCase | TestGroup]:
    """A legacy group's items (its test cases and subgroups) in the order its judge takes
    them: by directory entry name, a case named by its ``.ans`` file (as problemtools
    lists them)."""

    def key(item: TestCase | TestGroup) -> str:
        base = item.name.rsplit("/", 1)[-1]
        return base + ".ans" if isinstance(item, TestCase) else base

    return sorted([*group.cases, *group.groups], key=key)
