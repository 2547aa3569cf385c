"""Validators and graders: present where the configuration needs them, each a program
whose language can be told (or with build/run scripts), names not shared."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from problemtools_py.checks.registry import check
from problemtools_py.findings import Finding, error, warning
from problemtools_py.model.conventions import extension
from problemtools_py.model.problem import Problem, Program
from problemtools_py.model.programs import validator_format
from problemtools_py.rulesets import Ruleset


def program_findings(
    programs: tuple[Program, ...], kind: str, legacy: bool, validators: bool = False
) -> Iterator[Finding]:
    """Shape problems of one directory of programs."""
    names = Counter(p.name for p in programs)
    for program in programs:
        if names[program.name] > 1:
            yield error("program", f"two {kind}s share the name '{program.name}'", program.rel)
        if program.is_dir and legacy and program.has_build != program.has_run:
            have, lack = ("build", "run") if program.has_build else ("run", "build")
            yield error(
                "program",
                f"{kind} directory has a '{have}' script but no '{lack}' "
                "script: give both or neither",
                program.rel,
            )
        if program.is_dir and not program.files:
            yield error("program", f"{kind} directory is empty", program.rel)
        elif program.language is None and not (program.has_build or program.has_run):
            if validators and validator_format(program) is not None:
                continue  # (checktestdata, VIVA)
            yield error(
                "program",
                f"cannot tell the language of this {kind} from its file "
                "names (or its sources mix languages)",
                program.rel,
            )


@check("validators")
def input_validators(problem: Problem) -> Iterator[Finding]:
    if not problem.input_validators:
        where = (
            "input_validators"
            if not problem.legacy or not problem.file("input_format_validators")
            else "input_format_validators"
        )
        yield extension(
            (Ruleset.DOMJUDGE, Ruleset.BAPCTOOLS),
            "validators",
            "no input validators found: at least one is required",
            where,
        )
    if (
        problem.legacy
        and problem.file("input_validators")
        and problem.file("input_format_validators")
    ):
        yield warning(
            "validators",
            "both input_validators/ and input_format_validators/ exist; "
            "the validators of both are used",
            "input_format_validators",
        )
    yield from program_findings(
        problem.input_validators, "input validator", problem.legacy, validators=True
    )


def _needs_output_validator(problem: Problem) -> str | None:
    config = problem.config
    if problem.legacy:
        return "validation is custom" if config.custom_validation else None
    for kind in ("interactive", "multi-pass"):
        if kind in config.types:
            return f"the problem is {kind}"
    return None


@check("validators")
def output_validators(problem: Problem) -> Iterator[Finding]:
    reason = _needs_output_validator(problem)
    where = "output_validators" if problem.legacy else "output_validator"
    if reason and not problem.output_validators:
        yield error("validators", f"{reason}, but there is no output validator in {where}/", where)
    if problem.output_validators and problem.output_validator is None:
        yield warning(
            "validators",
            "output validators are present but validation is not "
            "custom, so they are not used (set 'validation: custom')",
            where,
        )
    yield from program_findings(problem.output_validators, "output validator", problem.legacy)


def _custom_grading_groups(problem: Problem) -> list[str]:
    used = []
    for group in problem.data.walk() if problem.data is not None else ():
        if problem.settings(group.name).get("grading") == "custom":
            used.append(group.rel)
    return used


@check("graders")
def graders(problem: Problem) -> Iterator[Finding]:
    if not problem.legacy:
        return
    used = _custom_grading_groups(problem)
    seed_custom = problem.config.grader == "custom"
    if (used or seed_custom) and not problem.graders:
        where = "problem.yaml" if seed_custom else used[0] + "/testdata.yaml"
        yield error("graders", "custom grading is asked for, but graders/ has no grader", where)
    if len(problem.graders) > 1:
        yield error(
            "graders", "graders/ holds more than one grader; at most one is allowed", "graders"
        )
    if problem.graders and not problem.config.scoring:
        yield warning(
            "graders", "graders only apply to scoring problems; this one is pass-fail", "graders"
        )
    elif problem.graders and not (used or seed_custom):
        yield warning(
            "graders", "a grader is present but no test group uses 'grading: custom'", "graders"
        )
    yield from program_findings(problem.graders, "grader", True)


@check("validators")
def other_programs(problem: Problem) -> Iterator[Finding]:
    """Answer validators, the static validator and the visualizers: programs like the
    validators (whether they run is the running parts' business)."""
    yield from program_findings(
        problem.answer_validators, "answer validator", problem.legacy, validators=True
    )
    for kind, program in (
        ("static validator", problem.static_validator),
        ("input visualizer", problem.input_visualizer),
        ("output visualizer", problem.output_visualizer),
    ):
        if program is not None:
            yield from program_findings((program,), kind, problem.legacy)
