"""model/timelimit.py: the time-limit rules, on packages loaded but never run."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.builders import write

from problemtools_py.model import load_problem
from problemtools_py.model.problem import Problem
from problemtools_py.model.timelimit import LimitKind, derive, fixed_limit, time_limit

LEGACY = "name: x\n"
MODERN = "problem_format_version: 2023-07-draft\nname: x\n"


def package(tmp_path: Path, yaml: str, timelimit: str | None = None) -> Problem:
    write(tmp_path, "problem.yaml", yaml)
    if timelimit is not None:
        write(tmp_path, ".timelimit", timelimit)
    return load_problem(tmp_path)


@pytest.mark.parametrize(("slowest", "limit"), [
    (0.0, 1.0), (0.1, 1.0), (0.2, 1.0), (0.21, 2.0), (1.2, 6.0), (3.0, 15.0),
])
def test_legacy_rounds_up_to_whole_seconds(tmp_path: Path, slowest: float, limit: float) -> None:
    assert derive(package(tmp_path, LEGACY), slowest) == limit  # time_multiplier 5


def test_legacy_multiplier_from_problem_yaml(tmp_path: Path) -> None:
    problem = package(tmp_path, LEGACY + "limits:\n  time_multiplier: 2\n")
    assert derive(problem, 1.2) == 3.0  # ceil(1.2 x 2)


@pytest.mark.parametrize(("slowest", "resolution", "limit"), [
    (0.3, 1.0, 1.0), (0.6, 1.0, 2.0), (0.6, 0.5, 1.5), (0.5, 0.5, 1.0), (0.0, 0.25, 0.25),
])
def test_modern_rounds_up_to_the_resolution(tmp_path: Path, slowest: float, resolution: float,
                                            limit: float) -> None:
    problem = package(tmp_path, MODERN + f"limits:\n  time_resolution: {resolution}\n")
    assert derive(problem, slowest) == pytest.approx(limit)  # ac_to_time_limit 2


def test_the_option_wins_then_the_file_then_the_yaml(tmp_path: Path) -> None:
    problem = package(tmp_path, MODERN + "limits:\n  time_limit: 3\n", timelimit="2.5\n")
    by_option = fixed_limit(problem, 7.0)
    assert by_option is not None and (by_option.seconds, by_option.kind) == (7.0, LimitKind.FIXED)
    by_file = fixed_limit(problem, None)
    assert by_file is not None and (by_file.seconds, by_file.source) == (2.5, ".timelimit")
    (tmp_path / ".timelimit").unlink()
    by_yaml = fixed_limit(load_problem(tmp_path), None)
    assert by_yaml is not None and (by_yaml.seconds, by_yaml.source) == (3.0, "limits.time_limit")


@pytest.mark.parametrize("text", ["", "\n", "fast\n", "-1\n", "nan\n"])
def test_a_timelimit_file_without_a_time_fixes_nothing(tmp_path: Path, text: str) -> None:
    assert fixed_limit(package(tmp_path, LEGACY, timelimit=text), None) is None


def test_kinds_steer_nothing_by_their_wording(tmp_path: Path) -> None:
    problem = package(tmp_path, LEGACY)
    default = time_limit(problem, None, None)
    assert (default.seconds, default.kind) == (1.0, LimitKind.DEFAULT)
    derived = time_limit(problem, None, 0.5)
    assert (derived.seconds, derived.kind, derived.hard) == (3.0, LimitKind.DERIVED, 6.0)


def test_a_derived_limit_far_above_the_usual_is_a_warning(copy_sample: object) -> None:
    import re

    from helpers.builders import replace

    from problemtools_py.verify.context import Options
    from problemtools_py.verify.verifier import verify_all

    root = copy_sample("different")  # type: ignore[operator]
    replace(root, "problem.yaml", "ac_to_time_limit: 2.0", "ac_to_time_limit: 100000.0")
    options = Options(submissions=re.compile(r"^submissions/accepted/"))
    (report,) = verify_all([root], ("submissions",), options=options).problems
    found = [f for f in report.findings if f.check == "time-limit"]
    assert len(found) == 1 and "far above what problems use" in found[0].message, found
    assert report.time_limit is not None and report.time_limit > 10
