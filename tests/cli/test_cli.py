"""verifyproblem's command line: options, output format and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers.builders import append, remove
from helpers.packages import SAMPLES

import problemtools_py.verify.verifier as verify_module
from problemtools_py.checks import REGISTRY
from problemtools_py.cli.verifyproblem import main
from problemtools_py.grading.problems import PackagesSource
from problemtools_py.sandbox.pool import SandboxPool

HELLO = str(SAMPLES / "hello")
DIFFERENT = str(SAMPLES / "different")
Capture = pytest.CaptureFixture[str]


def test_parts_do_not_swallow_the_directory(capsys: Capture) -> None:
    assert main(["-p", "config,statement", HELLO, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["problems"][0]["parts"] == ["config", "statement"]


def test_parts_may_be_repeated_and_come_after_the_directories(capsys: Capture) -> None:
    assert main([HELLO, DIFFERENT, "-p", "data", "-p", "config", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [p["parts"] for p in report["problems"]] == [["config", "data"]] * 2


def test_space_separated_parts_get_a_helpful_usage_error(capsys: Capture) -> None:
    assert main(["-p", "config", "statement", HELLO]) == 2
    err = capsys.readouterr().err
    assert "'statement' is a part name, not a directory" in err
    assert "-p config,statement" in err


def test_unknown_part_is_a_usage_error(capsys: Capture) -> None:
    assert main(["-p", "config,spelling", HELLO]) == 2
    assert "unknown part(s) spelling" in capsys.readouterr().err


def test_missing_directory_is_a_usage_error(tmp_path: Path, capsys: Capture) -> None:
    assert main([str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "nope: no such directory" in err and "Traceback" not in err


def test_file_instead_of_directory(tmp_path: Path, capsys: Capture) -> None:
    (tmp_path / "file").write_text("x")
    assert main([str(tmp_path / "file")]) == 2
    assert "is neither a directory nor a .zip/.kpp archive" in capsys.readouterr().err


def test_no_arguments_is_a_usage_error(capsys: Capture) -> None:
    assert main([]) == 2
    assert "usage:" in capsys.readouterr().err


def test_help_exits_zero(capsys: Capture) -> None:
    assert main(["--help"]) == 0
    assert "--parts" in capsys.readouterr().out


def test_findings_are_file_line_severity_message(copy_sample: Callable[..., Path],
                                                 capsys: Capture) -> None:
    root = copy_sample("hello")
    append(root, "problem.yaml", "colour: blue\nlicense: gpl\n")
    assert main(["--no-run", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"{root}/problem.yaml:12: warning: colour: unknown key, ignored" in out
    assert f"{root}/problem.yaml:13: error: license: 'gpl' is not one of" in out
    assert "hello: 2 errors, 1 warning" in out  # the duplicate key and the license


def test_warnings_fail_only_with_werror(copy_sample: Callable[..., Path]) -> None:
    root = copy_sample("hello")
    append(root, "problem.yaml", "colour: blue\n")
    assert main(["-q", "--no-run", str(root)]) == 0
    assert main(["-q", "--no-run", "-e", str(root)]) == 1


def test_bail_on_error_stops_after_the_failing_part(copy_sample: Callable[..., Path],
                                                    capsys: Capture) -> None:
    root = copy_sample("hello")
    append(root, "problem.yaml", "license: gpl\n")
    remove(root, "data/secret")
    assert main(["--json", "--no-run", str(root)]) == 1
    full = json.loads(capsys.readouterr().out)["problems"][0]["findings"]
    assert main(["--json", "--no-run", "-b", str(root)]) == 1
    bailed = json.loads(capsys.readouterr().out)["problems"][0]["findings"]
    assert any("data/secret is missing" in f["message"] for f in full)
    assert bailed and all(f["check"] in ("problem-yaml", "license") for f in bailed)


@pytest.mark.parametrize(("flags", "cases"), [([], 1), (["--all-cases"], 6)])
def test_a_failing_submission_stops_at_its_first_failure_unless_all_cases_are_asked(
    flags: list[str], cases: int, capsys: Capture
) -> None:
    argv = ["--json", "-p", "submissions", "-s", "wrong_answer/one.py", *flags]
    assert main([*argv, str(SAMPLES / "divisor")]) == 0
    (row,) = json.loads(capsys.readouterr().out)["problems"][0]["submissions"]
    assert row["verdict"] == "WA" and len(row["cases"]) == cases, row["cases"]


def test_quiet_prints_nothing_for_a_clean_problem(capsys: Capture) -> None:
    assert main(["-q", "--no-run", HELLO]) == 0
    assert capsys.readouterr().out == ""


def test_verbose_shows_parts_checks_and_timing(copy_sample: Callable[..., Path],
                                               capsys: Capture) -> None:
    root = copy_sample("hello")
    append(root, "problem.yaml", "colour: blue\n")
    main(["-v", "--no-run", str(root)])
    out = capsys.readouterr().out
    assert "hello: checking submissions" in out
    assert "[problem-yaml]" in out and "(legacy, " in out


def test_internal_error_exits_3_without_traceback(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: Capture) -> None:
    def broken_check(problem: object) -> list[object]:
        raise RuntimeError("boom")

    monkeypatch.setitem(REGISTRY, "config", [broken_check])
    monkeypatch.delenv("PROBLEMTOOLS_PY_DEBUG", raising=False)
    assert main(["--no-run", HELLO]) == 3
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: boom" in err and "Traceback" not in err
    monkeypatch.setenv("PROBLEMTOOLS_PY_DEBUG", "1")
    assert main(["--no-run", HELLO]) == 3
    assert "Traceback" in capsys.readouterr().err


def test_interrupt_exits_130(monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    def interrupted(path: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(verify_module, "load_problem", interrupted)
    assert main(["--no-run", HELLO]) == 130
    assert "interrupted" in capsys.readouterr().err


def test_module_entry_point_runs_as_a_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "problemtools_py", "-p", "config", HELLO, DIFFERENT],
        capture_output=True, text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "hello: 0 errors, 0 warnings" in proc.stdout
    assert "total: 0 errors, 0 warnings" in proc.stdout


BAD_NUMBERS = [
    ("verifyproblem", [HELLO, "-j", "0"], "must be at least 1"),
    ("verifyproblem", [HELLO, "-t", "-1"], "must be a positive number"),
    # (an endless limit: an expected TLE once ran for ever)
    ("verifyproblem", [HELLO, "-t", "inf"], "must be a positive number"),
    ("verifyproblem", [HELLO, "-t", "nan"], "must be a positive number"),
    ("upgradeproblem", [HELLO, "--dry-run", "--time-limit", "inf"], "must be a positive number"),
    ("gradeserver", ["--time-limit", "1e999"], "must be a positive number"),
    ("gradecode", [HELLO, "c.jsonl", "-j", "0"], "must be at least 1"),
    ("gradecode", [HELLO, "c.jsonl", "--memory-mb", "0"], "must be at least 1"),
    ("gradecode", [HELLO, "c.jsonl", "--output-factor", "two"], "not a whole number: 'two'"),
    ("parquet2kattis", [HELLO, "out", "-j", "-3"], "must be at least 1"),
    ("kattis2parquet", [HELLO, "-o", "out", "--max-tests", "0"], "must be at least 1"),
    ("kattis2parquet", [HELLO, "-o", "out", "--min-tests", "-1"], "must not be negative"),
]


@pytest.mark.parametrize(("command", "argv", "message"), BAD_NUMBERS)
def test_numbers_out_of_range_are_usage_errors(command: str, argv: list[str], message: str,
                                               capsys: Capture) -> None:
    """Every command checks its numeric options the same way, before doing any work."""
    module = __import__(f"problemtools_py.cli.{command}", fromlist=["main"])
    assert module.main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("option", "where", "message"), [
    ("--report", "file/report.html", "{tmp}/file is not a directory"),
    ("--report", ".", "is a directory; give a file, such as {tmp}/report.html"),
    ("--visualize", "file", "not a directory"),
    ("--visualize", "file/images", "cannot make the directory: Not a directory"),
])
def test_where_it_writes_is_checked_before_anything_runs(
    option: str, where: str, message: str, tmp_path: Path, capsys: Capture,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """A report or image directory it cannot write: a usage error at once, not after the
    verification (which here would fail the test: nothing may run)."""
    monkeypatch.setattr(verify_module, "verify_all", None)
    (tmp_path / "file").write_text("")
    target = tmp_path / where if where != "." else tmp_path
    assert main([option, str(target), HELLO]) == 2
    assert f"error: {option} {target}: {message.format(tmp=tmp_path)}" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["gradecode", "kattis2parquet"])
def test_ray_without_a_cluster_is_a_clear_error(command: str, tmp_path: Path, capsys: Capture,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    source = tmp_path / "c.jsonl"
    pid = sorted(PackagesSource(SAMPLES, SandboxPool(1)).ids())[0]  # a known problem: only Ray is missing
    source.write_text(json.dumps({"problem_id": pid, "completion": "x"}) + "\n")
    argv = ([str(SAMPLES), str(source), "-q"] if command == "gradecode"
            else [HELLO, "-o", str(tmp_path / "out"), "-q"])
    module = __import__(f"problemtools_py.cli.{command}", fromlist=["main"])
    assert module.main([*argv, "--ray", "auto"]) == 2
    said = capsys.readouterr().err
    assert "no Ray cluster runs on this machine" in said and "ray start --head" in said, said
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cpp:\n  extra_memory_mb: lots\n", "'extra_memory_mb' must be a whole number"),
        ("python3:\n  run: [a, b\n", "invalid YAML"),
    ],
)
def test_a_bad_languages_yaml_beside_a_package_is_a_usage_error_naming_it(
    copy_sample: Callable[..., Path], capsys: Capture, text: str, message: str
) -> None:
    root = copy_sample("hello")
    (root.parent / "languages.yaml").write_text(text)
    code = main(["-p", "submissions", str(root)])
    err = capsys.readouterr().err
    assert code == 2 and f"{root.parent / 'languages.yaml'}" in err and message in err, err
    assert "Traceback" not in err
