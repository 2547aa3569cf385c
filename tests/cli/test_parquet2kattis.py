"""parquet2kattis: every row becomes a package that verifyproblem passes (everything run),
with the tests, statement, reference and limits exactly as in the dataset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.dataset_gen import BIG, NO_REFERENCE, UNICODE, YES_NO, write_dataset

from problemtools_py.cli.parquet2kattis import main
from problemtools_py.cli.verifyproblem import main as verify
from problemtools_py.dataset import Dataset, problem_id
from problemtools_py.dataset import export as export_module
from problemtools_py.judge import dataset_rule

Capture = pytest.CaptureFixture[str]


TRAIN: dict[str, str] = {}


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ds")
    TRAIN.update(write_dataset(root, count=6))
    return root


@pytest.mark.parametrize("fmt", ["2023-07", "legacy"])
def test_every_package_passes_verifyproblem(dataset: Path, tmp_path: Path, capsys: Capture,
                                            fmt: str) -> None:
    out = tmp_path / "packages"
    assert main([str(dataset), str(out), "--split", "train", "--format", fmt, "-q"]) == 0
    packages = sorted(out.iterdir())
    assert {p.name for p in packages} == set(TRAIN)
    assert verify(["--json", *map(str, packages)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 0
    no_reference = problem_id(NO_REFERENCE[0])
    for problem in report["problems"]:
        if problem["name"] == no_reference:  # upstream tests only: a warning, no submission
            assert problem["submissions"] == [] and problem["warnings"] >= 1
            continue
        (row,) = problem["submissions"]
        assert row["submission"] == "submissions/accepted/reference.py" and row["verdict"] == "AC"


@pytest.mark.parametrize("fmt", ["2023-07", "legacy"])
def test_package_holds_the_row_exactly(dataset: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "p"
    ids = [problem_id(s) for s, _, _ in (YES_NO, UNICODE, BIG)]
    assert main([str(dataset), str(out), "--ids", ",".join(ids), "--format", fmt, "-q"]) == 0
    data = Dataset(dataset)
    for pid in ids:
        row = data.problem("train", pid)
        assert row is not None
        root = out / pid
        tests = sorted(root.glob("data/*/*.in"), key=lambda p: p.name)
        assert [(p.read_text(), p.with_suffix(".ans").read_text()) for p in tests] == list(row.tests)
        # legacy: a name Kattis problemtools accepts (no leading dot); else auxiliary
        name = ".dataset.json" if fmt == "2023-07" else "dataset.json"
        assert not (root / ("dataset.json" if fmt == "2023-07" else ".dataset.json")).exists()
        sidecar = json.loads((root / name).read_text())
        assert sidecar["statement"] == row.statement and sidecar["origin_json"] == row.origin_json
        assert sidecar["time_limit_s"] == row.time_limit_s and sidecar["split"] == "train"
        assert (root / "submissions/accepted/reference.py").read_text() == data.reference(pid)
        validator = next(root.glob("output_validator*/**/dataset_rule.py"))
        assert validator.read_bytes() == Path(dataset_rule.__file__).read_bytes()
        if fmt == "2023-07":
            assert (root / "statement/problem.en.md").read_text().rstrip("\n") == row.statement
        else:
            assert float((root / ".timelimit").read_text()) == row.time_limit_s


def test_share_filter_and_existing_packages(dataset: Path, tmp_path: Path, capsys: Capture) -> None:
    out = tmp_path / "rl"
    assert main([str(dataset), str(out), "--split", "train", "--share", "rl", "-q"]) == 0
    data = Dataset(dataset)
    expected = {p.problem_id for p in data.statements("train") if p.share == "rl"}
    assert {p.name for p in out.iterdir()} == expected
    capsys.readouterr()
    assert main([str(dataset), str(out), "--split", "train", "--share", "rl", "-q"]) == 2
    assert "already exists" in capsys.readouterr().err


def test_a_failed_package_leaves_nothing(dataset: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    def broken(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export_module, "_write", broken)
    out = tmp_path / "out"
    assert main([str(dataset), str(out), "--split", "eval", "-q"]) == 1
    assert not out.exists()  # (it made the directory: it takes it back)
    assert "No space left on device" in capsys.readouterr().err


@pytest.mark.parametrize("existing", [False, True])
def test_a_failure_after_some_packages_takes_them_back(
        dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing: bool) -> None:  # fmt: skip
    # (the packages written before the failure once stayed: half an output)
    real, calls = export_module.package, []

    def third_fails(*args: Any) -> Path:
        calls.append(1)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(*args)

    monkeypatch.setattr(export_module, "package", third_fails)
    out = tmp_path / "out"
    if existing:
        (out / "mine").mkdir(parents=True)
    assert main([str(dataset), str(out), "-j", "1", "-q"]) == 1
    assert len(calls) >= 3  # (two written before it)
    assert ([p.name for p in out.iterdir()] if existing else out.exists()) == (
        ["mine"] if existing else False)


def test_bad_dataset_directory_is_a_clear_error(tmp_path: Path, capsys: Capture) -> None:
    assert main([str(tmp_path / "none"), str(tmp_path / "out")]) == 2
    assert "not a dataset directory" in capsys.readouterr().err


def test_ids_not_in_the_dataset_are_named_and_json_lists_what_was_written(
    dataset: Path, tmp_path: Path, capsys: Capture
) -> None:
    """A mistyped --ids once wrote nothing, or less, and exited 0: now the ids no split
    holds are named (exit 1), the others still written; --json says what is where."""
    known = sorted(TRAIN)[0]
    out = tmp_path / "some"
    assert main([str(dataset), str(out), "--ids", f"{known},nosuch", "--json", "-q"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {
        "tool": "problemtools_py", "out": str(out), "missing_ids": ["nosuch"],
        "packages": [{"problem_id": known, "path": str(out / known)}],
    }  # fmt: skip
    assert [p.name for p in out.iterdir()] == [known]
    assert f"error: {dataset}: no problem with id nosuch in split" in captured.err
    none = tmp_path / "none"
    assert main([str(dataset), str(none), "--ids", "nosuch", "-q"]) == 1
    assert not none.exists()  # (nothing written: no empty directory either)


SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"


def test_rows_with_their_own_judge_go_and_come_back(tmp_path: Path, capsys: Capture) -> None:
    """kattis2parquet --keep-judges keeps divisor (several right answers) and guess
    (interactive) with their judges beside the card's files, which stay as a build
    without them makes them; parquet2kattis writes packages that verifyproblem passes,
    and they convert back byte for byte."""
    from problemtools_py.cli.kattis2parquet import main as kattis2parquet

    names = [str(SAMPLES / n) for n in ("hello", "divisor", "guess")]
    assert kattis2parquet([*names, "-o", str(tmp_path / "plain"), "-q", "--min-tests", "1"]) == 0
    kept = tmp_path / "kept"
    assert kattis2parquet([*names, "-o", str(kept), "-q", "--min-tests", "1", "--keep-judges"]) == 0
    plain_file = (tmp_path / "plain" / "problems-train.parquet").read_bytes()
    assert (kept / "problems-train.parquet").read_bytes() == plain_file  # (the card's rows)
    report = json.loads((kept / "build_report.json").read_text())
    assert report["judged"] == {"train": 2} and report["dropped"] == {}
    judged = [p for p in Dataset(kept).iter_problems("train") if p.judge_json]
    assert sorted(json.loads(p.judge_json)["kind"] for p in judged) == ["custom", "interactive"]
    out = tmp_path / "packages"
    assert main([str(kept), str(out), "-q"]) == 0
    assert verify([*map(str, sorted(out.iterdir())), "-q"]) == 0
    capsys.readouterr()
    back = tmp_path / "back"
    assert kattis2parquet([*map(str, sorted(out.iterdir())), "-o", str(back), "-q"]) == 0
    for path in kept.iterdir():
        assert (back / path.name).read_bytes() == path.read_bytes(), path.name
