"""model/settings.py and the rules the Problem answers: settings inherited through the
test groups, validator arguments per case, which output validator applies, .timelimit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.builders import case, write
from helpers.packages import verify

from problemtools_py.model import load_problem
from problemtools_py.model.settings import number_setting, read_timelimit

MODERN = "problem_format_version: 2023-07-draft\nname: x\n"


def test_legacy_settings_inherit_key_by_key(tmp_path: Path) -> None:
    write(tmp_path, "problem.yaml", "name: x\n")
    write(tmp_path, "data/testdata.yaml", "on_reject: continue\ninput_validator_flags: a b\n")
    write(tmp_path, "data/secret/g1/testdata.yaml", "input_validator_flags:\n  v: c\n")
    case(tmp_path, "data/secret/g1/1")
    case(tmp_path, "data/secret/2")
    problem = load_problem(tmp_path)
    assert problem.settings("secret/g1")["on_reject"] == "continue"
    cases = {c.name: c for c in problem.data.all_cases()}  # type: ignore[union-attr]
    one, two = cases["secret/g1/1"], cases["secret/2"]
    assert problem.input_validator_args(one, "v") == ["c"]
    assert problem.input_validator_args(one, "w") == []
    assert problem.input_validator_args(two, "v") == ["a", "b"]
    assert problem.settings("no/such/group") == {}


def test_modern_case_yaml_overrides_the_group(tmp_path: Path) -> None:
    write(tmp_path, "problem.yaml", MODERN)
    write(tmp_path, "data/secret/test_group.yaml",
          "input_validator_args: [x]\noutput_validator_args: [float_tolerance, '1e-6']\n")
    case(tmp_path, "data/secret/1")
    write(tmp_path, "data/secret/1.yaml", "output_validator_args: [case_sensitive]\nargs: [y]\n")
    case(tmp_path, "data/secret/2")
    problem = load_problem(tmp_path)
    one, two = sorted(problem.data.all_cases(), key=lambda c: c.name)  # type: ignore[union-attr]
    assert problem.output_validator_args(one) == ["case_sensitive"]
    assert problem.output_validator_args(two) == ["float_tolerance", "1e-6"]
    assert problem.input_validator_args(one, "v") == ["x", "y"]


@pytest.mark.parametrize(("yaml", "applies"), [
    ("name: x\n", False),  # legacy: a validator without validation: custom is unused
    ("name: x\nvalidation: custom\n", True),
    (MODERN, True),
])
def test_which_output_validator_applies(tmp_path: Path, yaml: str, applies: bool) -> None:
    write(tmp_path, "problem.yaml", yaml)
    folder = "output_validators/v" if "2023" not in yaml else "output_validator"
    write(tmp_path, f"{folder}/validate.py", "print()\n")
    assert (load_problem(tmp_path).output_validator is not None) == applies


@pytest.mark.parametrize(("text", "seconds", "problem"), [
    ("2\n", 2.0, None), ("1.5 s\n", 1.5, None), ("", None, "is empty"),
    ("x\n", None, "'x' is not a number"), ("0\n", None, "0 is not a positive time"),
])
def test_read_timelimit(tmp_path: Path, text: str, seconds: float | None,
                        problem: str | None) -> None:
    write(tmp_path, ".timelimit", text)
    found = read_timelimit(tmp_path)
    assert found is not None and (found.seconds, found.problem) == (seconds, problem)
    assert read_timelimit(tmp_path / "nowhere") is None


def test_a_timelimit_file_without_a_time_is_one_warning(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("hello")
    write(root, ".timelimit", "soon\n")
    report = verify(root, ("config",))
    assert [(f.severity.value, f.check, f.path) for f in report.findings] == [
        ("warning", "timelimit", ".timelimit")
    ]
    assert "'soon' is not a number" in report.findings[0].message


@pytest.mark.parametrize(
    ("value", "expected"),
    [(3, 3.0), (2.5, 2.5), ("7", 7.0), (" -1e2 ", -100.0), (float("inf"), float("inf")),
     (True, 1.5), (None, 1.5), ([1], 1.5), ({"a": 1}, 1.5), ("x", 1.5), (float("nan"), 1.5)],
)
def test_a_number_setting_reads_its_default_unless_it_is_a_number(
    value: object, expected: float
) -> None:
    assert number_setting({"accept_score": value}, "accept_score", 1.5) == expected
    assert number_setting({}, "accept_score", 1.5) == 1.5
