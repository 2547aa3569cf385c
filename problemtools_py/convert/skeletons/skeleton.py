"""``newproblem``: a new package that verifies clean at once. A whole small problem of the
type asked for (see convert.skeletons.skeleton_texts), in 2025-09 or legacy, its test data
generated from its ``generators.yaml`` by the package's own generator, with accepted
submissions in the languages asked for; written under a temporary name and renamed when
complete, so a failure leaves nothing behind. ``newcontest``: a contest directory with
its ``contest.yaml`` and ``problems.yaml`` and a new problem for each name."""

from __future__ import annotations

import re
import shutil
import tempfile
import uuid
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from problemtools_py.convert.skeletons import skeleton_games as games
from problemtools_py.convert.skeletons import skeleton_texts as texts
from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode, ProblemReport

TYPES = ("pass-fail", "scoring", "interactive", "multi-pass")
FORMATS = ("2025-09", "legacy")
LANGUAGES = ("python3", "cpp", "java")
SHORT_NAME = re.compile(r"[a-z0-9]+\Z")  # (the legacy-icpc and Kattis rule: safe everywhere)


@dataclass(frozen=True)
class NewProblem:
    """What ``newproblem`` was asked for."""

    kind: str = "pass-fail"
    format: str = "2025-09"
    languages: tuple[str, ...] = ("python3",)
    title: str = ""
    author: str = "Anonymous"
    license: str = "cc by-sa"


def new_problem(parent: Path, name: str, asked: NewProblem) -> tuple[Path, ProblemReport]:
    """Write the package ``parent/name``; its path and generatedata's report on it."""
    if not SHORT_NAME.match(name):
        raise FatalError(
            f"{name!r}: a problem's short name is lower-case letters and digits",
            exit_code=ExitCode.USAGE,
        )
    if asked.format == "legacy" and asked.kind in ("multi-pass", "scoring"):
        why = (
            "no multi-pass problems"
            if asked.kind == "multi-pass"
            else (
                "scoring only through graders and testdata.yaml scores, which newproblem "
                "does not write"
            )
        )
        raise FatalError(f"legacy has {why}: use --format 2025-09", exit_code=ExitCode.USAGE)
    target = parent / name
    if target.exists():
        raise FatalError("already exists; choose another name", path=target)
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=parent))
    try:
        for rel, text in files(name, asked).items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        report = _generate(tmp)
        if asked.format == "legacy":  # (legacy knows no generators: its data stays)
            shutil.rmtree(tmp / "generators")
        tmp.chmod(0o755)
        tmp.rename(target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    report.path = str(target)
    return target, report


def files(name: str, asked: NewProblem) -> dict[str, str]:
    """The package's files (its data/ is generated from them), by path."""
    legacy = asked.format == "legacy"
    kind = asked.kind
    statement, solutions, extra = _parts(kind, legacy)
    found = {"problem.yaml": _problem_yaml(name, asked)}
    title = asked.title or name.capitalize()
    if legacy:
        found["problem_statement/problem.en.tex"] = f"\\problemname{{{title}}}\n\n{statement}"
    else:
        found["statement/problem.en.md"] = statement
    found.update(extra)
    for language in asked.languages:
        file, code = solutions[language]
        found[f"submissions/accepted/{file}"] = code
    if "python3" not in asked.languages and "solution: /submissions" in found[_YAML]:
        first = f"/submissions/accepted/{solutions[asked.languages[0]][0]}"
        found[_YAML] = found[_YAML].replace("/submissions/accepted/solution.py", first)
    if legacy:  # (no invalid_input, downloads or generators in legacy: see new_problem)
        downloads = ("in.download:", "ans.download:")
        found[_YAML] = _without(found[_YAML], ("  invalid_input:",), downloads)
        found = {_legacy_path(rel): text for rel, text in found.items()}
    return found


def _without(plan: str, sections: tuple[str, ...], keys: tuple[str, ...]) -> str:
    """generators.yaml's text without the top-level ``sections`` (to the end of the
    text: they come last) and without the block keys ``keys`` (and what they hold)."""
    lines = plan.splitlines(keepends=True)
    for section in sections:
        cut = next((i for i, line in enumerate(lines) if line.rstrip() == section), None)
        lines = lines[:cut] if cut is not None else lines
    kept: list[str] = []
    skipping_below: int | None = None
    for line in lines:
        depth = len(line) - len(line.lstrip())
        if skipping_below is not None and (depth > skipping_below or not line.strip()):
            continue
        skipping_below = None
        if line.strip().startswith(keys):
            skipping_below = depth
            continue
        kept.append(line)
    return "".join(kept)


_YAML = "generators/generators.yaml"


def _parts(kind: str, legacy: bool) -> tuple[str, dict[str, tuple[str, str]], dict[str, str]]:
    """(statement, accepted solutions by language, the other files) of a type."""
    if kind in ("pass-fail", "scoring"):
        plan = texts.SUM_GENERATORS if kind == "pass-fail" else texts.SCORING_GENERATORS
        return (
            texts.SUM_STATEMENT_TEX if legacy else texts.SUM_STATEMENT,
            texts.SUM_SOLUTIONS,
            {
                _YAML: plan,
                "generators/random_list.py": texts.SUM_GENERATOR,
                "input_validators/validate.py": texts.SUM_VALIDATOR,
            },
        )
    if kind == "interactive":
        return (
            games.GUESS_STATEMENT_TEX if legacy else games.GUESS_STATEMENT,
            games.GUESS_SOLUTIONS,
            {
                _YAML: games.GUESS_GENERATORS,
                "generators/secret.py": games.GUESS_GENERATOR,
                "input_validators/validate.py": games.GUESS_VALIDATOR,
                "output_validator/validate.py": games.GUESS_JUDGE,
                "attachments/testing_tool.py": games.GUESS_TESTING_TOOL,
            },
        )
    return (
        games.PASSES_STATEMENT,
        games.PASSES_SOLUTIONS,
        {
            _YAML: games.PASSES_GENERATORS,
            "generators/first_pass.py": games.PASSES_GENERATOR,
            "input_validators/validate.py": games.PASSES_VALIDATOR,
            "output_validator/validate.py": games.PASSES_JUDGE,
        },
    )


def _legacy_path(rel: str) -> str:
    """Legacy's directory of output validators: one per subdirectory."""
    if rel.startswith("output_validator/"):
        return "output_validators/validate/" + rel.removeprefix("output_validator/")
    return rel


def _problem_yaml(name: str, asked: NewProblem) -> str:
    title = asked.title or name.capitalize()
    if asked.format == "legacy":
        config: dict[str, object] = {
            "name": title,
            "uuid": str(uuid.uuid4()),
            "author": asked.author,
            "license": asked.license,
        }
        if asked.kind == "interactive":
            config["validation"] = "custom interactive"
    else:
        config = {
            "problem_format_version": "2025-09",
            "type": asked.kind,
            "name": title,
            "uuid": str(uuid.uuid4()),
            "credits": {"authors": asked.author},
            "license": asked.license,
        }
        if asked.kind == "multi-pass":
            config["limits"] = {"validation_passes": 2}
    return yaml.safe_dump(config, sort_keys=False, allow_unicode=True)


def _generate(root: Path) -> ProblemReport:
    """The package's data/, made by generatedata from its generators.yaml."""
    from problemtools_py.generate.runner import generate_problem
    from problemtools_py.sandbox.pool import SandboxPool

    with SandboxPool(2) as pool:
        return generate_problem(root, pool)


def new_contest(
    root: Path, names: list[str], asked: NewProblem, title: str
) -> list[tuple[Path, ProblemReport]]:
    """A contest directory: contest.yaml, problems.yaml (labels A, B, ...) and a new
    problem for each name (each titled by its name); each one's path and report."""
    if root.exists():
        raise FatalError("already exists; choose another directory", path=root)
    if len(set(names)) != len(names) or len(names) > 26:
        raise FatalError(
            "the problems' names must be distinct, at most 26", exit_code=ExitCode.USAGE
        )
    for name in names:
        if not SHORT_NAME.match(name):
            raise FatalError(
                f"{name!r}: a problem's short name is lower-case letters and digits",
                exit_code=ExitCode.USAGE,
            )
    root.mkdir(parents=True)
    try:
        contest = {"name": title or root.name, "problems": len(names)}
        (root / "contest.yaml").write_text(yaml.safe_dump(contest, sort_keys=False))
        problems = [
            {"id": n, "label": chr(ord("A") + i), "name": n.capitalize()}
            for i, n in enumerate(names)
        ]
        (root / "problems.yaml").write_text(yaml.safe_dump(problems, sort_keys=False))
        return [new_problem(root, name, replace(asked, title="")) for name in names]
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
