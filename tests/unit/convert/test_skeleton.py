"""newproblem's files (convert.skeletons.skeleton): the layout of each type and format, and what is
refused with a usage error."""

from __future__ import annotations

from pathlib import Path

import pytest

from problemtools_py.convert.skeletons.skeleton import (
    NewProblem,
    _without,
    files,
    new_contest,
    new_problem,
)
from problemtools_py.errors import FatalError
from problemtools_py.exitcodes import ExitCode


@pytest.mark.parametrize(("kind", "fmt", "judge", "statement"), [
    ("pass-fail", "2025-09", None, "statement/problem.en.md"),
    ("scoring", "2025-09", None, "statement/problem.en.md"),
    ("interactive", "2025-09", "output_validator/validate.py", "statement/problem.en.md"),
    ("multi-pass", "2025-09", "output_validator/validate.py", "statement/problem.en.md"),
    ("pass-fail", "legacy", None, "problem_statement/problem.en.tex"),
    ("interactive", "legacy", "output_validators/validate/validate.py",
     "problem_statement/problem.en.tex"),
])  # fmt: skip
def test_each_type_has_what_it_needs(kind: str, fmt: str, judge: str | None,
                                     statement: str) -> None:  # fmt: skip
    made = files("sum", NewProblem(kind, fmt, ("python3", "cpp", "java")))
    assert statement in made and "input_validators/validate.py" in made
    assert {"submissions/accepted/solution.py", "submissions/accepted/solution.cpp",
            "submissions/accepted/Solution.java"} <= set(made)  # fmt: skip
    validators = {rel for rel in made if "output_validator" in rel}
    assert validators == ({judge} if judge else set())
    plan = made["generators/generators.yaml"]
    assert ("invalid_input" in plan) == (fmt == "2025-09")
    assert "download" not in plan or fmt == "2025-09"


def test_a_generated_answer_comes_from_a_language_asked_for() -> None:
    made = files("sum", NewProblem(languages=("cpp",)))
    assert "solution: /submissions/accepted/solution.cpp" in made["generators/generators.yaml"]
    assert set(r for r in made if r.startswith("submissions/")) == {
        "submissions/accepted/solution.cpp"}  # fmt: skip


@pytest.mark.parametrize(("name", "asked", "what"), [
    ("Bad-Name", NewProblem(), "lower-case letters and digits"),
    ("ok", NewProblem("multi-pass", "legacy"), "legacy has no multi-pass"),
    ("ok", NewProblem("scoring", "legacy"), "legacy has scoring only through graders"),
])  # fmt: skip
def test_what_cannot_be_made_is_a_usage_error(tmp_path: Path, name: str, asked: NewProblem,
                                              what: str) -> None:  # fmt: skip
    with pytest.raises(FatalError, match=what) as info:
        new_problem(tmp_path, name, asked)
    assert info.value.exit_code is ExitCode.USAGE and list(tmp_path.iterdir()) == []


def test_an_existing_directory_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(FatalError, match="already exists"):
        new_problem(tmp_path, "taken", NewProblem())
    with pytest.raises(FatalError, match="distinct"):
        new_contest(tmp_path / "c", ["a", "a"], NewProblem(), "")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def test_sections_and_keys_are_cut_from_a_plan() -> None:
    plan = "data:\n  sample:\n    data:\n      - x:\n          in.download: |\n            1\n" \
           "          in: '1'\n  invalid_input:\n    data: {}\n"
    cut = _without(plan, ("  invalid_input:",), ("in.download:",))
    assert cut == "data:\n  sample:\n    data:\n      - x:\n          in: '1'\n"
