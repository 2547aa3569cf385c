"""generatedata --fuzz (audit.fuzz, convert.fuzzcases): fresh seeds for the random
generators find a planted wrong "accepted" submission that passes every existing test,
keep the case (shrunk), and --add records it so that generatedata makes it again byte
for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from problemtools_py.cli.generatedata import main as generatedata
from problemtools_py.cli.newproblem import main as newproblem
from problemtools_py.cli.verifyproblem import main as verify

Capture = pytest.CaptureFixture[str]
UNLUCKY = "input()\ns = sum(map(int, input().split()))\nprint(s + (1 if s % 10 == 3 else 0))\n"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("made")
    assert newproblem(["sum", "-d", str(root)]) == 0
    return root / "sum"


def test_a_planted_bug_is_found_and_added(made: Path, tmp_path: Path, capsys: Capture) -> None:
    root = shutil.copytree(made, tmp_path / "sum")
    (root / "submissions/accepted/unlucky.py").write_text(UNLUCKY)
    assert verify(["-q", str(root)]) == 0  # (it passes every test the package has)
    capsys.readouterr()
    assert generatedata([str(root), "--fuzz", "--time", "30", "--seed", "1", "--add",
                         "--json"]) == 1  # fmt: skip
    (report,) = json.loads(capsys.readouterr().out)["fuzzed"]
    assert report["found"] and report["seconds"] < 31
    first = report["found"][0]
    assert "unlucky.py got WA" in first["why"] and first["command"].startswith("random_list.py")
    assert report["added"] == [f["case"] for f in report["found"]]
    kept = {p.name: p.read_bytes() for p in (root / "data/fuzz").iterdir()}
    shutil.rmtree(root / "data/fuzz")
    assert generatedata([str(root), "-q"]) == 0
    assert {p.name: p.read_bytes() for p in (root / "data/fuzz").iterdir()} == kept
    shrunk = [f for f in report["found"] if f["shrunk_from"]]
    assert all(len(f["command"]) <= len(f["shrunk_from"]) for f in shrunk)


def test_a_sound_package_keeps_nothing(made: Path, tmp_path: Path, capsys: Capture) -> None:
    root = shutil.copytree(made, tmp_path / "sum")
    assert generatedata([str(root), "--fuzz", "--time", "2", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)["fuzzed"]
    assert report["found"] == [] and report["cases"] > 0
    assert not (root / "data/fuzz").exists()


def test_nothing_to_fuzz_is_said(made: Path, tmp_path: Path, capsys: Capture) -> None:
    root = shutil.copytree(made, tmp_path / "sum")
    plan = root / "generators/generators.yaml"
    plan.write_text(plan.read_text().replace("{seed}", "7"))
    assert generatedata([str(root), "--fuzz", "--time", "1"]) == 1
    assert "takes {seed}: nothing to fuzz" in capsys.readouterr().err


def test_the_fuzz_entry_is_fuzzed_alone(made: Path, tmp_path: Path, capsys: Capture) -> None:
    """generators.yaml's own fuzz: commands (small inputs here) are the only ones run."""
    root = shutil.copytree(made, tmp_path / "sum")
    plan = root / "generators/generators.yaml"
    plan.write_text(plan.read_text() + "fuzz:\n  - random_list.py 3 5 {seed}\n")
    (root / "submissions/accepted/seven.py").write_text(UNLUCKY.replace("s % 10 == 3", "s == 7"))
    assert generatedata([str(root), "--fuzz", "--time", "10", "--seed", "3", "--json"]) == 1
    (report,) = json.loads(capsys.readouterr().out)["fuzzed"]
    assert report["found"] and all(f["command"].startswith("random_list.py 3 5 ")
                                   for f in report["found"])  # fmt: skip
    assert "(the answer from submissions/accepted/seven.py)" in report["found"][0]["why"]
