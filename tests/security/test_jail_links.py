"""Trust boundary: what a jailed validator leaves behind (docs/security.md). A multi-pass
problem's output validator writes ``nextpass.in`` into a feedback directory bound writable
into its jail; left as a symbolic link to a host file, the judge (root, outside any jail)
must never follow it. Attacked through every path that judges a multi-pass problem: an
inline judge given to ``compute_score`` and to gradeserver's ``/grade``, ``verifyproblem``
on the package, and ``generatedata`` writing a sample's ``.interaction``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from problemtools_py.convert.skeletons.skeleton import NewProblem, new_problem
from problemtools_py.dataset.judges import judge_json
from problemtools_py.model import load_problem
from problemtools_py.model.judgekind import judge_need

MARK = "TOPSECRET"

# Pass 1: leave nextpass.in as a link (to the secret, or through a linked directory). The
# submission echoes its input; pass 2 accepts when that is the host's file, and copies it
# into the judge's message.
HOSTILE = """\
import os, sys
given, _answer, feedback = sys.argv[1:4]
try:
    first = open(given, errors="replace").read().startswith("1 ")
except OSError:  # (the host's file, which only root may read)
    first = False
team = sys.stdin.read()
if first:
    if {through_dir}:
        os.symlink(os.path.dirname({secret!r}), os.path.join(feedback, "d"))
        os.symlink("d/" + os.path.basename({secret!r}), os.path.join(feedback, "nextpass.in"))
    else:
        os.symlink({secret!r}, os.path.join(feedback, "nextpass.in"))
    sys.exit(42)
with open(os.path.join(feedback, "judgemessage.txt"), "w") as f:
    f.write("second pass saw: " + team[:200])
sys.exit(42 if "{mark}" in team else 43)
"""


def _secret(tmp_path: Path) -> Path:
    """A host file only root may read, outside every package."""
    folder = tmp_path / "host"
    folder.mkdir()
    path = folder / "shadow"
    path.write_text(f"{MARK}-{uuid.uuid4().hex}\n")
    path.chmod(0o600)
    return path


def _hostile_package(tmp_path: Path, secret: Path, through_dir: bool = False) -> Path:
    """newproblem's multi-pass package with the hostile validator in place of its own."""
    root, _ = new_problem(tmp_path / "pkgs", "twopass", NewProblem("multi-pass"))
    code = HOSTILE.format(secret=str(secret), mark=MARK, through_dir=through_dir)
    (root / "output_validator" / "validate.py").write_text(code)
    return root


def _inline(root: Path) -> tuple[list[list[str]], str]:
    """The package as a judged row: its tests and its judge_json."""
    problem = load_problem(root)
    need = judge_need(problem)
    assert need is not None
    cases = sorted(p.with_suffix("") for p in (root / "data" / "secret").glob("*.in"))
    tests = [[c.with_suffix(".in").read_text(), c.with_suffix(".ans").read_text()]
             for c in cases]  # fmt: skip
    text = judge_json(root, need, [c.relative_to(root).as_posix() for c in cases])
    assert text is not None
    return tests, text


SUBMISSION = "```python\nimport sys\nprint(sys.stdin.read() or 1)\n```"


@pytest.mark.parametrize("through_dir", [False, True], ids=["link", "linked-dir"])
def test_compute_score_never_reads_a_host_file_through_nextpass(
    tmp_path: Path, through_dir: bool
) -> None:
    from problemtools_py import rewards

    secret = _secret(tmp_path)
    tests, judge = _inline(_hostile_package(tmp_path, secret, through_dir))
    got = rewards.compute_score("x", SUBMISSION, tests,
                                extra_info={"judge_json": judge, "time_limit": 2})  # fmt: skip
    assert secret.read_text().strip() not in json.dumps(got)
    assert got["score"] == 0.0 and got["status"] == "judge_error", got


def test_grade_request_never_reads_a_host_file_through_nextpass(tmp_path: Path) -> None:
    import requests
    from grading.test_fusion_client import start, stop

    secret = _secret(tmp_path)
    tests, judge = _inline(_hostile_package(tmp_path, secret))
    proc, url = start()
    try:
        item = {"tests": tests, "judge_json": judge, "completion": SUBMISSION}
        answer = requests.post(f"{url}/grade", json=item, timeout=120)
    finally:
        stop(proc)
    assert secret.read_text().strip() not in answer.text
    assert answer.json()["reward"] is None and answer.json()["status"] == "judge_error"


def test_verifyproblem_never_reads_a_host_file_through_nextpass(tmp_path: Path) -> None:
    secret = _secret(tmp_path)
    root = _hostile_package(tmp_path, secret)
    tool = Path(sys.executable).parent / "verifyproblem"
    run = subprocess.run([str(tool), "--json", "-p", "submissions", str(root)],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert secret.read_text().strip() not in run.stdout + run.stderr
    report = json.loads(run.stdout)["problems"][0]
    assert {s["verdict"] for s in report["submissions"]} == {"JE"}
    assert any("nextpass.in" in f["message"] for f in report["findings"])


def test_generatedata_never_writes_a_host_file_into_a_transcript(tmp_path: Path) -> None:
    from problemtools_py.generate.runner import GenerateOptions, generate_problem
    from problemtools_py.sandbox.pool import SandboxPool

    secret = _secret(tmp_path)
    root = _hostile_package(tmp_path, secret)
    plan = root / "generators" / "generators.yaml"
    text = plan.read_text().replace("solution:\n", "solution: /submissions/accepted/solution.py\n")
    start, end = text.index("          interaction: |\n"), text.index("  secret:\n")
    plan.write_text(text[:start] + text[end:])
    for path in (root / "data").rglob("*.interaction"):
        path.unlink()
    with SandboxPool(2) as pool:
        report = generate_problem(root, pool, GenerateOptions(cache=tmp_path / "records"))
    written = [p.read_text(errors="replace") for p in root.rglob("*") if p.is_file()]
    assert not any(secret.read_text().strip() in text for text in written)
    assert any("nextpass.in" in f.message for f in report.findings), report.findings


def test_a_fifo_for_nextpass_neither_hangs_nor_passes(tmp_path: Path) -> None:
    """A FIFO left as nextpass.in would block a judge that opens it to read."""
    from problemtools_py import rewards

    root, _ = new_problem(tmp_path / "pkgs", "twopass", NewProblem("multi-pass"))
    (root / "output_validator" / "validate.py").write_text(
        "import os, sys\nsys.stdin.read()\n"
        "os.mkfifo(os.path.join(sys.argv[3], 'nextpass.in'))\nsys.exit(42)\n"
    )
    tests, judge = _inline(root)
    got = rewards.compute_score("x", SUBMISSION, tests,
                                extra_info={"judge_json": judge, "time_limit": 2})  # fmt: skip
    assert got["status"] == "judge_error", got
    shutil.rmtree(root)
    assert not os.path.exists(root)
