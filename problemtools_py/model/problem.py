"""The frozen problem model. Loaded once by :mod:`problemtools_py.model.loader`;
checks and later stages read it and never re-read or re-parse the package's files."""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType

from problemtools_py.model.config import ProblemConfig
from problemtools_py.model.constants import constant_texts
from problemtools_py.model.entrypoints import EntryPoints
from problemtools_py.model.files import FileEntry
from problemtools_py.model.groups import StaticCase, words
from problemtools_py.verdicts import Verdict
from problemtools_py.yamlfile import YamlDoc

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from typing import Any


class FormatVersion(enum.Enum):
    LEGACY = "legacy"
    V2023_07 = "2023-07-draft"  # and 2023-07: the drafts before the release
    V2025_09 = "2025-09"  # the released version (Kattis/problem-package-format b03c6a2)

    @property
    def schema_suffix(self) -> str:
        """Which of our JSON Schemas hold this version's files ("legacy", "2023-07", ...)."""
        return {"legacy": "legacy", "2023-07-draft": "2023-07", "2025-09": "2025-09"}[self.value]


@dataclass(frozen=True)
class Statement:
    """One statement file: ``problem.<lang>.<kind>`` (legacy ``problem.tex`` means en)."""

    lang: str
    rel: str
    kind: str  # "tex", "md" or "pdf"
    explicit_lang: bool
    text: str | None  # decoded text of tex/md, None for pdf or undecodable bytes
    problemname: str | None = None
    problemname_line: int | None = None
    plain_name: str | None = None  # from "%% plainproblemname: ..."


# 2025-09: the files that show a case's input or output in place of .in/.ans (at most one
# of each group), and that offer its output for download in place of .ans.
SHOW_INPUT = (".in.statement", ".interaction")
SHOW_OUTPUT = (".out", ".ans.statement", ".interaction")
DOWNLOAD_OUTPUT = (".out", ".ans.download")


@dataclass(frozen=True)
class TestCase:
    """Files sharing one base name inside a test-data directory."""

    name: str  # path relative to data/ without extension, e.g. "secret/g1/03"
    group: str  # group name, e.g. "secret/g1"
    files: dict[str, str] = field(default_factory=dict)  # extension -> rel path
    config: YamlDoc | None = None  # <case>.yaml (2023-07)

    def file(self, ext: str) -> str | None:
        return self.files.get(ext)

    @property
    def rel(self) -> str:
        return "data/" + self.name

    def shown(self, modern: bool = True, interaction: bool = True) -> tuple[str | None, str | None]:
        """The files a statement shows as the input and the output (``.interaction``
        counts as both, unless ``interaction`` is False); legacy shows .in and .ans."""
        if not modern:
            return self.files.get(".in"), self.files.get(".ans")
        skip = () if interaction else (".interaction",)
        given = next((self.files[e] for e in SHOW_INPUT if e in self.files and e not in skip), None)
        said = next((self.files[e] for e in SHOW_OUTPUT if e in self.files and e not in skip), None)
        return given or self.files.get(".in"), said or self.files.get(".ans")

    def downloaded(self, modern: bool = True) -> tuple[str | None, str | None]:
        """The files offered for download as the input and the output."""
        if not modern:
            return self.files.get(".in"), self.files.get(".ans")
        said = next((self.files[e] for e in DOWNLOAD_OUTPUT if e in self.files), None)
        return self.files.get(".in.download", self.files.get(".in")), said or self.files.get(".ans")

    @property
    def answer_shown(self) -> bool:
        """Whether its .ans is what a statement shows and offers (nothing overrides it)."""
        return not any(ext in self.files for ext in (*SHOW_OUTPUT, *DOWNLOAD_OUTPUT))


@dataclass(frozen=True)
class TestGroup:
    """A directory of test data below (and including) ``data/``."""

    name: str  # "" for data/ itself, else "sample", "secret/g1", ...
    rel: str  # "data", "data/secret/g1", ...
    config: YamlDoc  # testdata.yaml (legacy) or test_group.yaml / testdata.yaml (2023-07)
    cases: tuple[TestCase, ...] = ()
    groups: tuple[TestGroup, ...] = ()
    other_files: tuple[str, ...] = ()  # rel paths of files that belong to no test case

    @property
    def depth(self) -> int:
        return 0 if not self.name else self.name.count("/") + 1

    @property
    def own_settings(self) -> Mapping[str, Any]:
        """The keys of this group's own settings file (empty when it has none or it is
        not a mapping); :meth:`Problem.settings` gives what applies, inherited."""
        data = self.config.data
        return MappingProxyType(data) if isinstance(data, dict) else MappingProxyType({})

    def walk(self) -> Iterator[TestGroup]:
        yield self
        for group in self.groups:
            yield from group.walk()

    def all_cases(self) -> Iterator[TestCase]:
        for group in self.walk():
            yield from group.cases

    def child(self, name: str) -> TestGroup | None:
        for group in self.groups:
            if group.name.rsplit("/", 1)[-1] == name:
                return group
        return None


@dataclass(frozen=True)
class Program:
    """A validator, grader or submission: one file or one directory."""

    name: str
    rel: str
    is_dir: bool
    files: tuple[str, ...]  # rel paths of its source files
    language: str | None  # language code guessed from file names, None when unknown
    has_build: bool = False
    has_run: bool = False


@dataclass(frozen=True)
class Tag:
    """An ``@EXPECTED_RESULT@:``-style tag found in a submission's source."""

    kind: str  # "EXPECTED_RESULT", "EXPECTED_RESULTS" or "EXPECTED_SCORE"
    value: str
    rel: str
    line: int


@dataclass(frozen=True)
class CaseRule:
    """A submissions.yaml rule for the test cases (and groups) matching ``glob``."""

    glob: str
    permitted: frozenset[Verdict] | None = None
    required: frozenset[Verdict] | None = None


@dataclass(frozen=True)
class Expectation:
    """What a submission claims. ``permitted``: every test verdict must be in it
    (None: anything); ``required``: some test verdict must be in it (None: no demand)."""

    source: str  # e.g. "directory accepted/", "@EXPECTED_RESULT@: WA"
    permitted: frozenset[Verdict] | None = None
    required: frozenset[Verdict] | None = None
    score: tuple[float, float] | None = None
    compile_error: bool = False
    compile_error_ok: bool = False  # @EXPECTED_RESULTS@ with CE among others: CE, or a run
    partially_accepted: bool = False
    # submissions.yaml: rules for the test cases matching a glob, a judge message that must
    # appear, and whether the submission bounds the time limit ("lower", "upper", False)
    case_rules: tuple[CaseRule, ...] = ()
    message: str | None = None
    time_limit_use: str | bool | None = None
    # submissions.yaml: how to build it, where its file names do not say (2025-09)
    language: str | None = None
    entrypoint: str | None = None

    @property
    def accepted(self) -> bool:
        return self.permitted == frozenset({Verdict.AC}) and not self.compile_error


@dataclass(frozen=True)
class TagProblem:
    """A submission's @EXPECTED_RESULT@ tag (or its absence) the format does not accept."""

    rel: str
    line: int | None
    message: str
    is_error: bool = True
    domjudge: str | None = None  # what DOMjudge does with it, where it accepts it otherwise


@dataclass(frozen=True)
class Submission:
    """A submission: its program, its directory and what it is expected to get."""

    program: Program
    category: str | None  # directory below submissions/, None for a top-level entry
    tags: tuple[Tag, ...]
    expectation: Expectation | None  # None when the tags are invalid
    tag_problems: tuple[TagProblem, ...] = ()

    @property
    def rel(self) -> str:
        return self.program.rel


@dataclass(frozen=True)
class IncludeDir:
    """An include/ directory of files added to every submission of one language."""

    lang: str
    rel: str
    files: tuple[str, ...]


@dataclass(frozen=True)
class DeclaredLimit:
    """A time limit the package fixes: ``seconds`` (None when the file says no valid time,
    then ``problem`` says why) and where it comes from."""

    seconds: float | None
    source: str  # ".timelimit" or "limits.time_limit"
    problem: str | None = None


@dataclass(frozen=True)
class Problem:
    """A package, read once: files, config, statements, data, programs, submissions."""

    root: Path
    short_name: str
    format: FormatVersion
    format_declared: str | None  # the problem_format_version as written
    yaml: YamlDoc
    config: ProblemConfig
    files: tuple[FileEntry, ...]
    statements: tuple[Statement, ...]
    statement_dir: str | None  # rel of the statement directory found, if any
    data: TestGroup | None
    include_dirs: tuple[IncludeDir, ...]
    input_validators: tuple[Program, ...]
    output_validators: tuple[Program, ...]
    graders: tuple[Program, ...]
    submissions: tuple[Submission, ...]
    submission_categories: tuple[str, ...]  # directory names found below submissions/
    submissions_yaml: YamlDoc
    dataset_export: dict[str, object] | None = None  # .dataset.json of parquet2kattis
    group_settings: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    timelimit_file: DeclaredLimit | None = None  # .timelimit, as read
    auxiliary: tuple[str, ...] = ()  # 2025-09: entries read as if absent (.gitkeep, ~x, -y)
    # BAPCtools' answer_validators/ (DOMjudge reads it too): every .ans must pass them
    answer_validators: tuple[Program, ...] = ()
    domjudge_entry_points: EntryPoints | None = None  # DOMjudge's submissions.json
    # 2023-07 and later: single programs, each its own directory
    static_validator: Program | None = None
    input_visualizer: Program | None = None
    output_visualizer: Program | None = None

    @property
    def legacy(self) -> bool:
        return self.format is FormatVersion.LEGACY

    @cached_property
    def constants(self) -> dict[str, str]:
        """Every name of every constant (``name``, ``name.variant``) -> its text."""
        return constant_texts(self.config.constants)

    @property
    def released(self) -> bool:
        """The released 2025-09 version (its rules, where they differ from the drafts')."""
        return self.format is FormatVersion.V2025_09

    @cached_property
    def _by_rel(self) -> dict[str, FileEntry]:
        return {entry.rel: entry for entry in self.files}

    def file(self, rel: str) -> FileEntry | None:
        return self._by_rel.get(rel)

    def top_level(self) -> tuple[FileEntry, ...]:
        return tuple(e for e in self.files if "/" not in e.rel)

    def settings(self, group: str) -> Mapping[str, Any]:
        """The effective settings of test group ``group`` ("" is data/ itself)."""
        return self.group_settings.get(group, MappingProxyType({}))

    @property
    def output_validator(self) -> Program | None:
        """The custom output validator that judges outputs, or None for the default one
        (legacy: only with ``validation: custom``; 2023-07: whenever there is one)."""
        if not self.output_validators:
            return None
        if self.legacy and not self.config.custom_validation:
            return None
        return self.output_validators[0]

    @property
    def declared_time_limit(self) -> DeclaredLimit | None:
        """The time limit the package fixes: a readable ``.timelimit`` file, else the
        2023-07 ``limits.time_limit``; None when it is left to the submissions' times."""
        if self.timelimit_file is not None and self.timelimit_file.seconds is not None:
            return self.timelimit_file
        if not self.legacy and self.config.limits.time_limit:
            return DeclaredLimit(self.config.limits.time_limit, "limits.time_limit")
        return None

    def _validator_key(self, settings: Mapping[str, Any], kind: str) -> str:
        """Where a group's validator arguments are: legacy ``<kind>_validator_flags``;
        later ``<kind>_validator_args``, though a 2023-07-draft package may still use an
        earlier draft's ``_flags`` key (read until it is renamed)."""
        flags, args = f"{kind}_validator_flags", f"{kind}_validator_args"
        if self.legacy or (self.format is FormatVersion.V2023_07 and args not in settings):
            return flags
        return args

    def input_validator_args(self, case: TestCase, validator: str) -> list[str]:
        """The arguments input validator ``validator`` gets on ``case``: legacy
        ``input_validator_flags`` (a string, or a map by validator name), inherited;
        2023-07 ``input_validator_args``, which the case's own yaml overrides, then its
        ``args``."""
        settings = self.settings(case.group)
        value = settings.get(self._validator_key(settings, "input"))
        args = words(value.get(validator)) if isinstance(value, dict) else words(value)
        own = case.config.data if case.config is not None and not self.legacy else None
        if isinstance(own, dict):
            mine = own.get("input_validator_args")
            if mine is not None:
                args = words(mine.get(validator) if isinstance(mine, dict) else mine)
            args += words(own.get("args"))
        return args

    def is_test_group(self, group: TestGroup) -> bool:
        """Whether a directory below data/secret is a test data group: 2025-09, one with
        a test_group.yaml (the others only organise test cases); the drafts, every one
        (deeper ones are errors there)."""
        return not self.released or group.config.exists

    def subgroups(self, group: TestGroup) -> tuple[TestGroup, ...]:
        """The test data groups directly in ``group`` (2025-09: only secret has any)."""
        if self.released and group.name != "secret":
            return ()
        return tuple(g for g in group.groups if self.is_test_group(g))

    def group_cases(self, group: TestGroup) -> list[TestCase]:
        """The test cases of ``group``: its own, and (2025-09) those in its directories
        that are not test data groups, at any depth."""
        cases = list(group.cases)
        kept = {g.name for g in self.subgroups(group)}
        for sub in group.groups if self.released else ():
            if sub.name not in kept:
                cases.extend(sub.all_cases())
        return cases

    def static_validation(self, group: TestGroup) -> StaticCase | None:
        """The static validation test case ``group`` defines (2023-07 and later: its own
        ``static_validation_score``, a number or ``pass-fail``), or None."""
        own = group.own_settings
        raw = own.get("static_validation_score")
        if self.legacy or raw is None or isinstance(raw, bool):
            return None
        if raw == "pass-fail":
            return StaticCase(group.name, None, words(own.get("static_validator_args")))
        if isinstance(raw, int | float) and raw >= 0:
            return StaticCase(group.name, float(raw), words(own.get("static_validator_args")))
        return None

    def visualizer_args(self, case: TestCase, kind: str) -> list[str]:
        """``<kind>_visualizer_args`` (kind: input or output) for ``case``: its group's,
        which the case's own yaml overrides (2023-07 and later)."""
        key = f"{kind}_visualizer_args"
        args = words(self.settings(case.group).get(key))
        own = case.config.data if case.config is not None else None
        if isinstance(own, dict) and own.get(key) is not None:
            args = words(own[key])
        return args

    def output_validator_args(self, case: TestCase) -> list[str]:
        """The output validator's arguments on ``case``: legacy ``validator_flags`` then
        the inherited ``output_validator_flags``; 2023-07 ``output_validator_args``, which
        the case's own yaml overrides."""
        settings = self.settings(case.group)
        if self.legacy:
            return [*self.config.validator_flags, *words(settings.get("output_validator_flags"))]
        args = words(settings.get(self._validator_key(settings, "output")))
        own = case.config.data if case.config is not None else None
        if isinstance(own, dict) and own.get("output_validator_args") is not None:
            args = words(own["output_validator_args"])
        return args
