"""2023-07 test data structure: groups one level deep in secret, no groups in sample,
secret holding cases or groups (not both), reserved and clashing names, per-case YAML,
sample-only keys, and require_pass references."""

from __future__ import annotations

from collections.abc import Iterator

from problemtools_py.checks.config import yaml_doc_findings
from problemtools_py.checks.registry import check
from problemtools_py.checks.schema import validate
from problemtools_py.findings import Finding, error
from problemtools_py.model.conventions import extension
from problemtools_py.model.groups import required_group
from problemtools_py.model.problem import Problem, TestGroup
from problemtools_py.rulesets import Ruleset


def _released_structure(problem: Problem, group: TestGroup) -> Iterator[Finding]:
    """2025-09: test data groups are the directories of secret with a test_group.yaml."""
    top = group.name.split("/")[0]
    if group.name == "secret" and problem.subgroups(group):
        if group.cases:
            yield error(
                "data",
                "data/secret holds test data groups (directories with test_group.yaml), so "
                "it may not hold test cases directly",
                group.rel,
            )
        for sub in group.groups:
            if not problem.is_test_group(sub):  # (bt run takes any directory as a group)
                text = (
                    "data/secret holds test data groups, so every directory in it must be "
                    "one: add a test_group.yaml"
                )
                yield extension(Ruleset.BAPCTOOLS, "data", text, sub.rel)
    deep = (top == "sample" and group.depth > 1) or (top == "secret" and group.depth > 2)
    if deep and group.config.exists:
        text = f"test_group.yaml here makes a test data group, but {top} may not hold " + (
            "any" if top == "sample" else "one inside a group"
        )
        if top == "secret":  # (bt run nests groups)
            yield extension(Ruleset.BAPCTOOLS, "data", text, group.config.rel)
        else:
            yield error("data", text, group.config.rel)


def _structure(problem: Problem, group: TestGroup) -> Iterator[Finding]:
    if problem.released:
        yield from _released_structure(problem, group)
    else:
        yield from _draft_structure(group)
    stems = {c.name.rsplit("/", 1)[-1] for c in group.cases}
    for sub in group.groups:
        base = sub.name.rsplit("/", 1)[-1]
        if base in stems:
            yield error(
                "data", f"group directory '{base}' has the same name as a test case", sub.rel
            )
    for case in group.cases:
        if case.name.rsplit("/", 1)[-1] == "test_group":
            yield error(
                "data", "a test case may not be named 'test_group'", min(case.files.values())
            )


def _draft_structure(group: TestGroup) -> Iterator[Finding]:
    top = group.name.split("/")[0]
    if group.name == "secret" and group.cases and group.groups:
        yield error("data", "data/secret must hold test cases or groups, not both", group.rel)
    if top == "sample" and group.depth > 1:
        yield error("data", "data/sample may not contain groups", group.rel)
    if top == "secret" and group.depth > 2:
        yield error(
            "data",
            "groups in data/secret are one level deep; subdirectories of a group are not groups",
            group.rel,
        )


def _sample_keys(group: TestGroup) -> Iterator[Finding]:
    data = group.config.data
    if group.name != "sample" or not isinstance(data, dict):
        return
    for key in ("max_score", "score_aggregation"):
        if key in data:
            yield error(
                "test-group",
                f"{key} is not allowed for data/sample",
                group.config.rel,
                group.config.line_of((key,)),
            )


def _require_pass(problem: Problem, group: TestGroup, earlier: list[str]) -> Iterator[Finding]:
    data = group.config.data
    if not isinstance(data, dict) or "require_pass" not in data:
        return
    value = data["require_pass"]
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    line = group.config.line_of(("require_pass",))
    for name in names:
        if not isinstance(name, str):
            continue
        full = required_group(name)
        if group.name == "secret" and name != "sample":
            yield error(
                "test-group", "data/secret may only require 'sample'", group.config.rel, line
            )
        elif full != "sample" and full not in earlier:
            yield error(
                "test-group",
                f"require_pass: '{full}' is not an earlier test group",
                group.config.rel,
                line,
            )


@check("data")
def modern_structure(problem: Problem) -> Iterator[Finding]:
    if problem.legacy or problem.data is None:
        return
    earlier: list[str] = []
    for group in problem.data.walk():
        yield from _structure(problem, group)
        yield from _sample_keys(group)
        yield from _require_pass(problem, group, earlier)
        if group.name:
            earlier.append(group.name)
        for case in group.cases:
            if case.config is None:
                continue
            yield from yaml_doc_findings(case.config, "test-case")
            if not case.config.unreadable:
                schema = f"test_case-{problem.format.schema_suffix}"
                yield from validate(case.config, schema, "test-case")
