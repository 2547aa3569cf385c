"""generatedata and verifyproblem --generate, for real, on copies of
sample_problems/gensum (whose data/ was written by generatedata and is byte-identical to
what BAPCtools 2026.10.0 writes from the same generators.yaml)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers.builders import append, replace, write
from helpers.packages import SAMPLES

from problemtools_py.cli.generatedata import main
from problemtools_py.cli.verifyproblem import main as verifyproblem
from problemtools_py.findings import ProblemReport
from problemtools_py.generate.runner import GenerateOptions, generate_problem
from problemtools_py.sandbox.pool import SandboxPool


@pytest.fixture(scope="module")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(3) as made:
        yield made


@pytest.fixture
def gensum(tmp_path: Path) -> Path:
    """A copy of gensum without its data/ (the records live in tmp_path too)."""
    root = tmp_path / "gensum"
    shutil.copytree(SAMPLES / "gensum", root, ignore=shutil.ignore_patterns("data"))
    return root


def _generate(root: Path, pool: SandboxPool, **options: bool) -> ProblemReport:
    settings = GenerateOptions(jobs=2, cache=root.parent / "cache", **options)
    return generate_problem(root, pool, settings)


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _found(report: ProblemReport) -> list[tuple[str, str | None, str]]:
    return [(f.severity.value, f.path, f.message) for f in report.findings]


def test_generated_data_is_the_committed_data(gensum: Path, pool: SandboxPool) -> None:
    report = _generate(gensum, pool)
    assert report.findings == [], _found(report)
    assert _tree(gensum / "data") == _tree(SAMPLES / "gensum/data")


def test_only_what_changed_is_remade(gensum: Path, pool: SandboxPool) -> None:
    _generate(gensum, pool)
    large = gensum / "data/secret/6-large.in"
    small = gensum / "data/secret/3-small-1.in"
    before = (large.stat().st_mtime_ns, small.stat().st_mtime_ns)
    small.write_text("edited by hand\n")
    report = _generate(gensum, pool)
    assert report.findings == []
    assert large.stat().st_mtime_ns == before[0]  # untouched: up to date
    assert small.read_bytes() == (SAMPLES / "gensum/data/secret/3-small-1.in").read_bytes()


def test_files_generators_yaml_does_not_make(gensum: Path, pool: SandboxPool) -> None:
    write(gensum, "data/secret/hand.in", "1\n1\n")
    write(gensum, "data/secret/.gitignore", "*\n")  # auxiliary: left alone
    report = _generate(gensum, pool)
    assert _found(report) == [("warning", "data/secret/hand.in",
                               "generators.yaml does not make this file (--clean removes it)")]
    report = _generate(gensum, pool, clean=True)
    assert not (gensum / "data/secret/hand.in").exists()
    assert (gensum / "data/secret/.gitignore").exists()


def test_a_failing_generator_keeps_the_committed_files_of_its_case(
        tmp_path: Path, pool: SandboxPool) -> None:  # fmt: skip
    # (a fresh clone with its committed data/, one generator failing: --clean removed
    # that case's .in and .ans as files generators.yaml did not make)
    root = tmp_path / "gensum"
    shutil.copytree(SAMPLES / "gensum", root)
    text = (root / "problem.yaml").read_text()
    (root / "problem.yaml").write_text(text.replace("max_a: 1000000", "max_a: x"))
    report = _generate(root, pool, clean=True)
    assert [(severity, path) for severity, path, _ in _found(report)] == [
        ("error", "data/secret/6-large")]
    assert _tree(root / "data") == _tree(SAMPLES / "gensum/data")


def test_a_generator_that_is_not_deterministic(gensum: Path, pool: SandboxPool) -> None:
    write(gensum, "generators/noisy.py", "import os\nprint(1)\nprint(int.from_bytes(os.urandom(4)))\n")
    text = (gensum / "generators/generators.yaml").read_text()
    (gensum / "generators/generators.yaml").write_text(
        text.replace("      - max:\n", "      - noisy: noisy.py\n      - max:\n"))
    report = _generate(gensum, pool, check_deterministic=True)
    errors = [f for f in _found(report) if f[0] == "error"]
    assert errors == [("error", "data/secret/7-noisy",
                       "not deterministic: a second run wrote different .in")], _found(report)


@pytest.mark.parametrize(("source", "message"), [
    ("import sys\nsys.exit(3)\n", "failed: exit code 3"),
    ("open('/judge/x', 'w')\n", "failed"),
    ("open('testcase.in', 'wb').write(b'1' * (300 << 20))\n", "failed"),
    # a link is never followed: the (empty) standard output is the input, then
    ("import os\nos.symlink('/etc/shadow', 'testcase.in')\n", "sum.py failed"),
])
def test_a_hostile_or_broken_generator(gensum: Path, pool: SandboxPool, source: str,
                                       message: str) -> None:
    write(gensum, "generators/bad.py", source)
    text = (gensum / "generators/generators.yaml").read_text()
    (gensum / "generators/generators.yaml").write_text(
        text.replace("      - max:\n", "      - bad:\n          generate: bad.py\n"
                     "          match: '^1\\n'\n      - max:\n"))
    report = _generate(gensum, pool)
    found = [f for f in _found(report) if f[1] == "data/secret/7-bad"]
    assert found and message in found[0][2], _found(report)
    assert not (gensum / "data/secret/7-bad.in").exists()
    assert b"root:" not in b"".join(_tree(gensum / "data").values())


def test_a_plan_with_errors_writes_nothing(gensum: Path, pool: SandboxPool) -> None:
    append(gensum, "generators/generators.yaml", "  valid_output:\n    data:\n      x: {count: 0}\n")
    report = _generate(gensum, pool)
    assert [(f.path, f.line) for f in report.findings if f.severity.value == "error"] == [
        ("generators/generators.yaml", 37), ("generators/generators.yaml", 37)]
    assert not (gensum / "data").exists()


def test_cli_json_and_verifyproblem_generate(gensum: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(gensum.parent / "cache"))
    assert main(["--json", "-j", "2", str(gensum)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["problems"][0]["errors"] == 0
    shutil.rmtree(gensum / "data")
    assert verifyproblem(["--generate", "-p", "data,validators", str(gensum)]) == 0
    assert "gensum: 0 errors, 0 warnings" in capsys.readouterr().out


def test_cli_on_a_missing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope")]) == 2  # a usage error, as for verifyproblem
    assert "no such directory" in capsys.readouterr().err


def test_no_generators_yaml(copy_sample: Callable[..., Path], pool: SandboxPool) -> None:
    report = generate_problem(copy_sample("hello"), pool)
    assert _found(report) == [("error", "generators/generators.yaml", "there is no generators.yaml")]


def test_a_generator_reading_its_own_path_sees_its_name(gensum: Path, pool: SandboxPool) -> None:
    """BAPCtools runs a generator from a directory named after it (its test problem
    `identity` seeds one by Path(sys.argv[0]).parts[-2]); so do we: bt's data, not ours."""
    write(gensum, "generators/named/named.py",
          "import pathlib, sys\nprint(pathlib.Path(sys.argv[0]).parts[-2])\nprint(2)\n")  # fmt: skip
    write(gensum, "generators/single.py",
          "import pathlib, sys\nprint(pathlib.Path(sys.argv[0]).parts[-2])\nprint(3)\n")  # fmt: skip
    replace(gensum, "generators/generators.yaml", "      - max:\n",
            "      - by-dir:\n          generate: named\n"
            "      - by-file:\n          generate: single.py\n      - max:\n")  # fmt: skip
    report = _generate(gensum, pool)
    assert [f for f in _found(report) if f[0] == "error"] == []
    made = {p.name: p.read_text() for p in (gensum / "data/secret").glob("*-by-*.in")}
    assert sorted(made.values()) == ["named\n2\n", "single.py\n3\n"], made
