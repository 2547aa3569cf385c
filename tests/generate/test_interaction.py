"""generatedata writes a sample's .interaction for interactive and multi-pass problems
(judge.transcript): the solution run against the output validator, byte for byte as
BAPCtools' ``bt generate`` writes it (from PyPI, run beside us on the same package)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers.packages import peer_env

from problemtools_py.convert.skeletons.skeleton import NewProblem, new_problem
from problemtools_py.convert.skeletons.skeleton_games import GUESS_GENERATORS, PASSES_GENERATORS
from problemtools_py.generate.runner import GenerateOptions, generate_problem
from problemtools_py.sandbox.pool import SandboxPool

EXPECTED = {  # (what bt generate 2026.10.0 wrote for these packages)
    "interactive": "".join(f"{line}\n" for line in (
        ">500", "<lower", ">250", "<higher", ">375", "<lower", ">312", "<higher", ">343",
        "<lower", ">327", "<higher", ">335", "<lower", ">331", "<higher", ">333", "<correct")),
    "multi-pass": "<1 7\n>49\n---\n<2 49\n>50\n",
}  # fmt: skip


def _without_transcript(root: Path) -> Path:
    """The package newproblem made, its sample's transcript left to be made."""
    plan = root / "generators" / "generators.yaml"
    text = plan.read_text().replace("solution:\n", "solution: /submissions/accepted/solution.py\n")
    start = text.index("          interaction: |\n")
    end = text.index("  secret:\n")
    plan.write_text(text[:start] + text[end:])
    for path in (root / "data").rglob("*.interaction"):
        path.unlink()
    return root


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("made")
    found = {}
    for kind in EXPECTED:
        path, _ = new_problem(root, kind.replace("-", ""), NewProblem(kind))
        found[kind] = _without_transcript(path)
    assert "interaction" in GUESS_GENERATORS and "interaction" in PASSES_GENERATORS
    return found


@pytest.mark.parametrize("kind", list(EXPECTED))
def test_the_sample_gets_its_transcript(made: dict[str, Path], kind: str, tmp_path: Path) -> None:
    root = shutil.copytree(made[kind], tmp_path / made[kind].name)
    with SandboxPool(3) as pool:
        report = generate_problem(root, pool, GenerateOptions(cache=tmp_path / "records"))
    assert report.findings == []
    assert (root / "data/sample/1.interaction").read_text() == EXPECTED[kind]
    assert not list((root / "data/secret").glob("*.interaction"))  # (samples only)


def test_a_solution_the_judge_rejects_makes_no_transcript(made: dict[str, Path],
                                                          tmp_path: Path) -> None:  # fmt: skip
    root = shutil.copytree(made["interactive"], tmp_path / "guess")
    (root / "submissions/accepted/solution.py").write_text("print(1, flush=True)\n")
    with SandboxPool(3) as pool:
        report = generate_problem(root, pool, GenerateOptions(cache=tmp_path / "records"))
    assert [f.message[:40] for f in report.findings] == [
        "no .interaction: solution /submissions/a"]  # fmt: skip
    assert "got WA against the output validator" in report.findings[0].message


@pytest.mark.parametrize("kind", list(EXPECTED))
def test_bapctools_writes_the_same_data(made: dict[str, Path], kind: str, tmp_path: Path,
                                        bt: Path) -> None:  # fmt: skip
    ours = shutil.copytree(made[kind], tmp_path / "ours" / made[kind].name)
    theirs = shutil.copytree(made[kind], tmp_path / "bt" / made[kind].name)
    with SandboxPool(3) as pool:
        assert generate_problem(ours, pool, GenerateOptions(cache=tmp_path / "r")).findings == []
    env = peer_env(PATH=f"{bt.parent}:{os.environ['PATH']}")
    run = subprocess.run([str(bt), "generate", "--no-bar"], cwd=theirs, env=env,
                         capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    tree = {p.relative_to(theirs).as_posix(): p.read_bytes()
            for p in (theirs / "data").rglob("*") if p.is_file()}  # fmt: skip
    mine = {p.relative_to(ours).as_posix(): p.read_bytes()
            for p in (ours / "data").rglob("*") if p.is_file()}  # fmt: skip
    assert "data/sample/1.interaction" in tree, run.stdout[-2000:] + run.stderr[-2000:]
    assert mine == tree


# Before the multi-pass validator: it needs the argument generators.yaml gives the data,
# and counts its passes in its feedback directory (as BAPCtools' validate.h does in
# feedback/.pass), so every pass must see the same directory.
STATEFUL = '''import os, sys
if "--strict" not in sys.argv:
    sys.exit(1)
state = os.path.join(sys.argv[3], ".pass")
count = int(open(state).read()) + 1 if os.path.exists(state) else 1
open(state, "w").write(str(count))
if open(sys.argv[1]).read().split()[0] != str(count):
    sys.exit(1)
'''


def test_a_multi_pass_transcript_has_the_datas_arguments_and_one_feedback_directory(
    made: dict[str, Path], tmp_path: Path
) -> None:
    """BAPCtools' alternativeencryption: its validator needs output_validator_args from
    generators.yaml's test_group.yaml, and keeps state between passes."""
    root = shutil.copytree(made["multi-pass"], tmp_path / "twopass")
    validator = root / "output_validator/validate.py"
    validator.write_text(STATEFUL + validator.read_text())
    plan = root / "generators/generators.yaml"
    plan.write_text(plan.read_text().replace(
        "\ndata:\n", "\ntest_group.yaml:\n  output_validator_args: [--strict]\ndata:\n", 1))  # fmt: skip
    with SandboxPool(3) as pool:
        report = generate_problem(root, pool, GenerateOptions(cache=tmp_path / "records"))
    assert report.findings == [], [f.message for f in report.findings]
    assert (root / "data/sample/1.interaction").read_text() == EXPECTED["multi-pass"]
