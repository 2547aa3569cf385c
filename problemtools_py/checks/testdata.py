"""Test data: data/sample and data/secret, test cases paired, annotations matched to a
case, groups non-empty, and each group's configuration (testdata.yaml / test_group.yaml)."""

from __future__ import annotations

from collections.abc import Iterator

from problemtools_py.checks.config import yaml_doc_findings
from problemtools_py.checks.registry import check
from problemtools_py.checks.schema import unknown_keys_warnings, validate
from problemtools_py.findings import Finding, error, warning
from problemtools_py.model.conventions import extension
from problemtools_py.model.problem import (
    DOWNLOAD_OUTPUT,
    SHOW_INPUT,
    SHOW_OUTPUT,
    FormatVersion,
    Problem,
    TestCase,
    TestGroup,
)
from problemtools_py.model.testdata import (
    GroupKind,
    case_extensions,
    is_for_validation,
    is_sample,
    sample_only_here,
)
from problemtools_py.rulesets import Ruleset
from problemtools_py.yamlfile import YamlDoc

LEGACY_SCORING_KEYS = ("accept_score", "reject_score", "range")
MODERN_SCORING_KEYS = ("max_score", "score_aggregation", "require_pass")


def _groups(problem: Problem) -> Iterator[TestGroup]:
    """data/ and its groups, but for directories no part of the format (``invalid_inputs/``
    of an old draft): reported once as an unexpected entry (layout.data_entries), their
    files are no test cases."""
    if problem.data is not None:
        for group in problem.data.walk():
            if not group.name or GroupKind.of(group.name) is not GroupKind.OTHER:
                yield group


@check("data")
def top_groups(problem: Problem) -> Iterator[Finding]:
    if problem.data is None:
        yield error("data", "data/ directory is missing", "data")
        return
    if problem.data.child("secret") is None:  # (bt run judges the samples: hellounix;
        text = "data/secret is missing: every problem needs secret test data"  # DOMjudge's
        judges = (Ruleset.BAPCTOOLS, Ruleset.DOMJUDGE)  # example hello has none either)
        yield extension(judges, "data", text, "data/secret")
    if problem.data.child("sample") is None:
        yield warning(
            "data", "data/sample is missing: sample test data is recommended", "data/sample"
        )


def _has_cases(group: TestGroup) -> bool:
    return any(True for _ in group.all_cases())


@check("data")
def nonempty_groups(problem: Problem) -> Iterator[Finding]:
    for group in _groups(problem):
        if not group.name or _has_cases(group) or problem.static_validation(group):
            continue
        if group.depth > 1 and not problem.is_test_group(group):  # 2025-09: a plain directory
            yield warning("data", f"directory data/{group.name} holds no test cases", group.rel)
        elif group.name == "sample" or is_for_validation(group.name):
            yield warning("data", f"test data group {group.name} is empty", group.rel)
        elif group.name == "secret":  # (bt run judges the samples alone: its CI does)
            text = "test data group secret has no test cases: BAPCtools runs the samples alone"
            yield extension(Ruleset.BAPCTOOLS, "data", text, group.rel)
        else:
            yield error("data", f"test data group {group.name} has no test cases", group.rel)


# Keys of earlier drafts (the legacy ones) that a 2023-07-draft package may still hold,
# and what replaced them.
OLDER_DRAFT_KEYS = {
    "on_reject": "nothing: every test case is judged (score_aggregation decides)",
    "range": "max_score",
    "accept_score": "max_score (and score.txt from the output validator)",
    "reject_score": "nothing: a rejected case scores 0",
    "grader_flags": "score_aggregation",
    "grading": "score_aggregation",
    "input_validator_flags": "input_validator_args (a list; it is read as one until then)",
    "output_validator_flags": "output_validator_args (a list; it is read as one until then)",
}


# test_group.yaml keys BAPCtools reads beyond the text's: its answer validators' arguments
BAPCTOOLS_GROUP_KEYS = ("answer_validator_args",)


def _bapctools_keys(found: list[Finding]) -> Iterator[Finding]:
    """The schema's findings, an unknown key BAPCtools reads named as its extension."""
    for finding in found:
        key = finding.message.split(":", 1)[0]
        if key in BAPCTOOLS_GROUP_KEYS and "unknown key" in finding.message:
            text = f"{finding.message}: BAPCtools gives it to its answer validators"
            finding = extension(Ruleset.BAPCTOOLS, finding.check, text, finding.path, finding.line)
        yield finding


def _older_draft_keys(doc: YamlDoc) -> Iterator[Finding]:
    for key in doc.data if isinstance(doc.data, dict) else ():
        if key in OLDER_DRAFT_KEYS:
            yield warning(
                "test-group",
                f"{key}: an earlier draft's key; 2023-07 uses {OLDER_DRAFT_KEYS[key]}",
                doc.rel,
                doc.line_of((key,)),
            )


def _display_overrides(case: TestCase, exts: set[str]) -> Iterator[Finding]:
    """2025-09: at most one way to show (and to download) a case's input and its output,
    and what is shown differently must be downloaded differently too."""
    where = case.files.get(".in", case.files[min(exts)])
    for group, what in (
        (SHOW_INPUT, "show its input"),
        (SHOW_OUTPUT, "show its output"),
        (DOWNLOAD_OUTPUT, "download its output"),
    ):
        found = [ext for ext in group if ext in exts]
        if len(found) > 1:
            yield error("data", f"{case.name} has {' and '.join(found)}: one way to {what}", where)
    if exts & set(SHOW_INPUT) and ".in.download" not in exts:
        yield error(
            "data", f"{case.name}: its input is shown differently, so it needs .in.download", where
        )
    if exts & {".ans.statement", ".interaction"} and not exts & set(DOWNLOAD_OUTPUT):
        yield error(
            "data",
            f"{case.name}: its output is shown differently, so it needs .ans.download (or .out)",
            where,
        )


def _case_findings(problem: Problem, case: TestCase) -> Iterator[Finding]:
    exts = set(case.files)
    interactive = problem.config.interactive
    where = case.files[min(exts)]
    invalid_input = not problem.legacy and case.name.startswith("invalid_input/")
    if ".in" in exts and ".ans" not in exts and not invalid_input:  # (they have none)
        yield error(
            "data", f"test case {case.name} has an .in file but no .ans file", case.files[".in"]
        )
    elif ".ans" in exts and ".in" not in exts:
        yield error(
            "data", f"test case {case.name} has an .ans file but no .in file", case.files[".ans"]
        )
    elif not exts & {".in", ".ans"} and not (interactive and ".interaction" in exts):
        for ext in sorted(exts - {".files"}):
            if problem.legacy and ext not in case_extensions(True):  # (ignored in legacy)
                text = f"'{ext}' files are not part of the legacy format; ignored"
                yield warning("data", text, case.files[ext])
            else:
                text = f"'{ext}' file is not matched to a test case (no {case.name}.in)"
                yield error("data", text, case.files[ext])
        return
    for ext in sorted(exts - case_extensions(problem.legacy)):
        yield warning(
            "data",
            f"'{ext}' files are not part of the {problem.format.value} format",
            case.files[ext],
        )
    if problem.released:
        yield from _display_overrides(case, exts)
    if not problem.legacy:
        for ext in sorted(exts & {".desc", ".hint"}):
            key = "description" if ext == ".desc" else "hint"
            yield warning(
                "data",
                f"'{ext}' files became '{key}:' in {case.name}.yaml in 2023-07",
                case.files[ext],
            )
        for ext in sorted(e for e in exts if sample_only_here(e, case.name)):
            text = f"'{ext}' files are only allowed for samples"
            if GroupKind.of(case.name) is GroupKind.INVALID_ANSWER:  # (bt writes them)
                yield extension(Ruleset.BAPCTOOLS, "data", text, case.files[ext])
            else:
                yield error("data", text, case.files[ext])
    if interactive and is_sample(case.name) and ".interaction" not in exts:
        yield warning("data", f"interactive sample {case.name} has no .interaction file", where)


@check("data")
def test_cases(problem: Problem) -> Iterator[Finding]:
    for group in _groups(problem):
        for case in group.cases:
            yield from _case_findings(problem, case)
        for rel in group.other_files if group.name else ():  # data/ itself: see layout
            yield warning("data", "file belongs to no test case and is ignored", rel)


def _scoring_keys(problem: Problem, group: TestGroup) -> Iterator[Finding]:
    data = group.config.data
    if not isinstance(data, dict) or problem.config.scoring:
        return
    for key in LEGACY_SCORING_KEYS if problem.legacy else MODERN_SCORING_KEYS:
        if key in data:
            yield error(
                "test-group",
                f"{key} is only for scoring problems, and this one is pass-fail",
                group.config.rel,
                group.config.line_of((key,)),
            )


@check("data")
def group_configs(problem: Problem) -> Iterator[Finding]:
    schema = "testdata-legacy" if problem.legacy else f"test_group-{problem.format.schema_suffix}"
    for group in _groups(problem):
        doc = group.config
        if problem.released and problem.file(f"{group.rel}/testdata.yaml"):
            yield warning(
                "test-group",
                "testdata.yaml is the drafts' name: 2025-09 reads test_group.yaml only, so "
                "it is ignored (rename it, and check its keys)",
                f"{group.rel}/testdata.yaml",
            )
        if not doc.exists:
            continue
        yield from yaml_doc_findings(doc, "test-group")
        if doc.unreadable:
            continue
        yield from _bapctools_keys(validate(doc, schema, "test-group"))
        if problem.format is FormatVersion.V2023_07:
            yield from _older_draft_keys(doc)
        if problem.legacy:
            yield from unknown_keys_warnings(doc, schema, "test-group")
        elif problem.file(f"{group.rel}/test_group.yaml") and problem.file(
            f"{group.rel}/testdata.yaml"
        ):
            yield warning(
                "test-group",
                "both test_group.yaml and testdata.yaml; testdata.yaml is ignored",
                f"{group.rel}/testdata.yaml",
            )
        yield from _scoring_keys(problem, group)


@check("data")
def legacy_inheritance(problem: Problem) -> Iterator[Finding]:
    if not problem.legacy:
        return
    for group in problem.data.walk() if problem.data is not None else ():
        settings = problem.settings(group.name)
        flags = str(settings.get("grader_flags", "")).split()
        if "ignore_sample" in flags and group.name:
            yield warning(
                "test-group", "ignore_sample only applies to the root group data/", group.config.rel
            )
        if (
            "ignore_sample" in flags
            and settings.get("on_reject", "break") == "break"
            and not group.name
        ):
            yield warning(
                "test-group",
                "ignore_sample with on_reject: break stops at the first "
                "rejected sample before the secret data is judged",
                group.config.rel,
            )
