"""Arguments for validators per test case: legacy flags inherited key by key through
testdata.yaml; 2023-07 *_args lists from test_group.yaml and the case's own yaml."""

from __future__ import annotations

from typing import Any

from problemtools_py.model.problem import Problem, TestCase, TestGroup


def group_settings(problem: Problem) -> dict[str, dict[str, Any]]:
    """Group name -> its effective settings (legacy: inherited key by key; 2023-07:
    the group's own test_group.yaml over secret's / the root's)."""
    found: dict[str, dict[str, Any]] = {}

    def walk(group: TestGroup, parent: dict[str, Any]) -> None:
        own = group.config.data if isinstance(group.config.data, dict) else {}
        settings = {**parent, **own}
        found[group.name] = settings
        for child in group.groups:
            walk(child, settings)

    if problem.data is not None:
        walk(problem.data, {})
    return found


def _words(value: object) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


def input_validator_args(
    problem: Problem, settings: dict[str, Any], case: TestCase, validator: str
) -> list[str]:
    key = "input_validator_flags" if problem.legacy else "input_validator_args"
    value = settings.get(key)
    args = _words(value.get(validator)) if isinstance(value, dict) else _words(value)
    if not problem.legacy and case.config is not None and isinstance(case.config.data, dict):
        own = case.config.data.get("input_validator_args")
        if own is not None:
            args = _words(own.get(validator) if isinstance(own, dict) else own)
        args += _words(case.config.data.get("args"))
    return args


def output_validator_args(problem: Problem, settings: dict[str, Any], case: TestCase) -> list[str]:
    if problem.legacy:
        return [*problem.config.validator_flags, *_words(settings.get("output_validator_flags"))]
    args = _words(settings.get("output_validator_args"))
    if case.config is not None and isinstance(case.config.data, dict):
        own = case.config.data.get("output_validator_args")
        if own is not None:
            args = _words(own)
    return args
