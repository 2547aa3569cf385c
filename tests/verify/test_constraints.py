"""Constraint coverage (verifyproblem --constraints) on copies of sample_problems/subtasks
whose input validator reports its bounds as BAPCtools' validation.h does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from helpers.builders import replace, write
from helpers.packages import describe
from helpers.reporting import REPORTING

from problemtools_py.cli.verifyproblem import main
from problemtools_py.resources import load_schema
from problemtools_py.verify.constraints import parse_number, statement_bounds
from problemtools_py.verify.context import Options
from problemtools_py.verify.verifier import verify_all


def _run(root: Path) -> tuple[list[tuple[str, str | None, str]], dict[str, tuple[bool, bool]]]:
    options = Options(constraints=True)
    (report,) = verify_all([root], ("validators",), options=options).problems
    found = [(f.check, f.path, f.message) for f in report.findings if f.check == "constraints"]
    rows = {r.name: (r.reached_low, r.reached_high) for r in report.constraints}
    assert [f for f in report.findings if f.check != "constraints"] == [], describe(report)
    return found, rows


def test_a_bound_no_case_reaches(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    write(root, "input_validators/validate.py", REPORTING)
    found, rows = _run(root)
    assert rows == {"n": (True, True), "a": (False, True)}
    assert found == [("constraints", "input_validators/validate.py",
                      "no test case reaches the minimum -1e+09 of a (the data spans -9.9e+08 "
                      "to 1e+09)")] or (found and "minimum -1e+09 of a" in found[0][2]), found


def test_the_statement_disagrees_with_the_validator(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("subtasks")
    write(root, "input_validators/validate.py", REPORTING.replace(
        "MAX_N, MAX_A = {{max_n}}", "MAX_N, MAX_A = 30000"))
    found, _rows = _run(root)
    mismatch = [f for f in found if f[1] == "statement/problem.en.md"]
    assert [m[2] for m in mismatch] == [
        "the statement bounds n by 1, 10, 20000, the validator validate by 1 and 30000"], found


def test_validators_without_the_flag_are_not_asked(copy_sample: Callable[..., Path]) -> None:
    found, rows = _run(copy_sample("subtasks"))
    assert (found, rows) == ([], {})


def test_json_carries_the_table(copy_sample: Callable[..., Path],
                                capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_sample("subtasks")
    write(root, "input_validators/validate.py", REPORTING)
    replace(root, "statement/problem.en.md", "{{max_n.tex}}", "{{max_n}}")
    main(["--json", "--constraints", "-p", "validators", str(root)])
    report = json.loads(capsys.readouterr().out)
    jsonschema.validate(report, load_schema("report"))
    names = [row["name"] for row in report["problems"][0]["constraints"]]
    assert sorted(names) == ["a", "n"]


@pytest.mark.parametrize(("text", "value"), [
    ("1000", 1000.0), ("1,000", 1000.0), ("10^9", 1e9), ("10^{12}", 1e12),
    ("2 \\cdot 10^4", 20000.0), ("-5", -5.0),
])
def test_parse_number(text: str, value: float) -> None:
    assert parse_number(text) == value


def test_statement_bounds() -> None:
    text = "Given $1 \\le n \\le 2 \\cdot 10^5$ and $|a_i| \\le 10^9$, $0 \\leq k < 100$."
    assert statement_bounds(text) == {"n": {1.0, 200000.0}, "k": {0.0, 100.0}}
