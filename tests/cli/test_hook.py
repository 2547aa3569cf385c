"""The pre-commit hook, through the real pre-commit, on a git repository of problems."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.packages import REPO, SAMPLES

from problemtools_py.cli.hook import main, package_roots

pytestmark = pytest.mark.slow


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})


def pre_commit(repo: Path, hook: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or "pre-commit"
    home = repo.parent / "pre-commit-home"  # pre-commit's own cache of hook environments
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run([exe, "try-repo", str(REPO), hook, "--verbose"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=900, check=False)


@pytest.fixture(scope="module")
def problems_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("authors") / "problems"
    repo.mkdir()
    git(repo, "init", "-q")
    shutil.copytree(SAMPLES / "hello", repo / "hello")
    shutil.copytree(SAMPLES / "hello", repo / "broken")
    with (repo / "broken" / "problem.yaml").open("a") as handle:
        handle.write("limits:\n  memory: lots\n")
    return repo


def test_the_good_package_passes_and_the_broken_one_fails(problems_repo: Path) -> None:
    git(problems_repo, "add", "hello")
    good = pre_commit(problems_repo, "verifyproblem-static")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Passed" in good.stdout
    git(problems_repo, "add", "broken")
    bad = pre_commit(problems_repo, "verifyproblem-static")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "broken/problem.yaml:13: error: limits.memory: 'lots' is not of type 'integer'" in bad.stdout


def test_the_full_hook_judges_the_submissions(problems_repo: Path) -> None:
    git(problems_repo, "reset", "-q")
    git(problems_repo, "add", "hello/submissions/accepted/hello.py")
    result = pre_commit(problems_repo, "verifyproblem")
    assert result.returncode == 0, result.stdout + result.stderr


def test_files_map_to_their_packages(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / "set" / name / "data").mkdir(parents=True)
        (tmp_path / "set" / name / "problem.yaml").write_text("name: x\n")
    files = ["set/a/data/x.in", "set/a/problem.yaml", "set/b/data", "README.md", "../outside"]
    assert package_roots(files, tmp_path) == [tmp_path / "set/a", tmp_path / "set/b"]


def test_no_package_touched_is_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["README.md"]) == 0
