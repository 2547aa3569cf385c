"""auditdata (audit.package) on packages of our own making with planted weak tests: the
mutants of an accepted solution that no test rejects are named, each with a generator
input it fails; dead code's mutants are equivalent and not counted; the tests that
reject nothing are named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from problemtools_py.cli.auditdata import main as auditdata
from problemtools_py.cli.newproblem import main as newproblem

Capture = pytest.CaptureFixture[str]
# Sums large lists in a loop of its own, which only large inputs reach
SPLIT = """n = int(input())
values = list(map(int, input().split()))
if n > 100:
    total = 0
    for value in values:
        total += value
else:
    total = sum(values)
print(total)
"""
WRONG = "input()\nprint(max(map(int, input().split())))\n"


@pytest.fixture(scope="module")
def weak(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """newproblem's sum, its large secret cases gone (generators.yaml still makes them:
    the random inputs survivors are tried on)."""
    root = tmp_path_factory.mktemp("made")
    assert newproblem(["sum", "-d", str(root)]) == 0
    package = root / "sum"
    for path in (package / "data/secret").glob("*large*"):
        path.unlink()
    (package / "submissions/accepted/solution.py").write_text(SPLIT)
    return package


def _audit(capsys: Capture, *argv: str) -> tuple[int, dict[str, object]]:
    capsys.readouterr()
    code = auditdata([*argv, "--json"])
    (found,) = json.loads(capsys.readouterr().out)["problems"]
    assert isinstance(found, dict)
    return code, found


def test_the_untested_branch_is_named_with_a_witness(weak: Path, capsys: Capture) -> None:
    code, audit = _audit(capsys, str(weak), "--mutants", "100")
    assert code == 1
    programs = audit["programs"]
    assert isinstance(programs, list)
    survivors = {p["change"]: p for p in programs if p["status"] == "survived"}
    assert {"0 -> 1", "+ -> -"} <= set(survivors)  # (total = 0; total += value: lines 4-6)
    for survivor in survivors.values():
        assert survivor["witness"].startswith("random_list.py 1000 ")  # (only large ones)
    rejected = [p for p in programs if p["status"] == "rejected"]
    assert rejected and all(p["rejected_by"] for p in rejected)
    score = audit["score"]
    assert isinstance(score, float) and 0 < score < 1


def test_a_given_wrong_program_counts(weak: Path, tmp_path: Path, capsys: Capture) -> None:
    wrong = tmp_path / "max.py"
    wrong.write_text(WRONG)
    code, audit = _audit(capsys, str(weak), "--mutants", "0", "--wrong", str(wrong))
    programs = audit["programs"]
    assert isinstance(programs, list) and code == 0
    (given,) = [p for p in programs if p["kind"] == "given"]
    assert given["status"] == "rejected" and "sample/1" in given["rejected_by"]


def test_dead_code_is_equivalent_and_idle_tests_named(weak: Path, capsys: Capture) -> None:
    dead = weak.parent / "dead"
    shutil.copytree(weak, dead)
    (dead / "submissions/accepted/solution.py").write_text(
        "input()\nvalues = list(map(int, input().split()))\nif len(values) > 5000:\n"
        "    values = []\nprint(sum(values))\n")  # fmt: skip
    _, audit = _audit(capsys, str(dead), "--mutants", "100")
    programs = audit["programs"]
    assert isinstance(programs, list)
    statuses = {p["change"]: p["status"] for p in programs}
    assert statuses["if body never runs"] == "equivalent"  # (dead code: n <= 1000)
    assert statuses["sum -> max"] == "rejected"
    assert isinstance(audit["idle_tests"], list)


SPLIT_CPP = """#include <cstdio>
int main() {
    int n; scanf("%d", &n);
    long long total = 0, x;
    for (int i = 0; i < n; i++) {
        scanf("%lld", &x);
        if (n > 100) total += x; else total = total + x;
    }
    printf("%lld\\n", total);
}
"""


def test_cpp_mutants_survive_the_same_gap(weak: Path, tmp_path: Path, capsys: Capture) -> None:
    package = shutil.copytree(weak, tmp_path / "sum")
    (package / "submissions/accepted/split.cpp").write_text(SPLIT_CPP)
    code, audit = _audit(capsys, str(package), "--mutants", "100")
    programs = audit["programs"]
    assert isinstance(programs, list) and code == 1
    cpp = [p for p in programs if p["name"].startswith("submissions/accepted/split.cpp:")]
    survivors = {p["change"] for p in cpp if p["status"] == "survived"}
    assert "+= -> -=" in survivors  # (line 7: the branch only large inputs take)
    assert any(p["status"] == "rejected" and p["change"] == "+ -> -" for p in cpp)


def test_augment_adds_the_witnesses_and_they_reject(tmp_path: Path, capsys: Capture) -> None:
    """Large cases only in generators.yaml's fuzz: entry (the random inputs), none among
    the tests: --augment adds a witness as a secret case; afterwards nothing survives,
    every accepted solution still passes and the package verifies."""
    from problemtools_py.cli.verifyproblem import main as verify

    assert newproblem(["sum", "-d", str(tmp_path)]) == 0
    package = tmp_path / "sum"
    plan = package / "generators/generators.yaml"
    text = plan.read_text()
    start, end = text.index("      - large:\n"), text.index("  invalid_input:\n")
    plan.write_text(text[:start] + text[end:] + "fuzz:\n  - random_list.py 1000 1000000 {seed}\n")
    for path in (package / "data/secret").glob("*large*"):
        path.unlink()
    (package / "submissions/accepted/solution.py").write_text(SPLIT)
    code, audit = _audit(capsys, str(package), "--mutants", "100", "--augment", "3")
    assert code == 0, audit
    programs = audit["programs"]
    assert isinstance(programs, list) and not [p for p in programs if p["status"] == "survived"]
    added = sorted(p.name for p in (package / "data/secret").glob("*audit-*.in"))
    assert added and all("audit-" in name for name in added)
    assert "random_list.py 1000 1000000 " in plan.read_text().split("fuzz:")[0]
    capsys.readouterr()
    assert verify(["-q", str(package)]) == 0


def test_bounds_an_invalid_input_and_no_large_case(weak: Path, tmp_path: Path,
                                                   capsys: Capture) -> None:  # fmt: skip
    package = shutil.copytree(weak, tmp_path / "sum")
    (package / "data/secret/2-small-1.in").write_text("3\n1 2 3 4\n")  # (n says 3: four)
    _, audit = _audit(capsys, str(package), "--mutants", "0", "--random", "0")
    assert audit["invalid_inputs"] == ["secret/2-small-1"]
    largest = audit["largest_input"]
    assert isinstance(largest, int) and 0 < largest < 1024
    notes = audit["notes"]
    assert isinstance(notes, list) and any("no large case" in str(n) for n in notes)


def test_the_html_report_charts_and_names(weak: Path, tmp_path: Path, capsys: Capture) -> None:
    page = tmp_path / "audit.html"
    auditdata([str(weak), "--mutants", "100", "--report", str(page)])
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "<script" not in html
    assert "<text x='0' y='20'>sum</text>" in html  # (its bar)
    assert "submissions/accepted/solution.py:constant@3:L4" in html  # (a survivor)
    assert "random_list.py 1000 1000000 " in html  # (its witness)
    assert auditdata([str(weak), "--report", str(tmp_path)]) == 2  # (a directory)


def test_without_generators_random_inputs_are_shaped_and_augment_writes_files(
    weak: Path, tmp_path: Path, capsys: Capture
) -> None:
    """No generators/: survivors run on inputs shaped as the test cases' (n up to the
    statement's 1000), kept when the input validator accepts them; --augment writes the
    witness as data/secret/audit-1.in and .ans; then nothing survives and it verifies."""
    from problemtools_py.cli.verifyproblem import main as verify

    package = shutil.copytree(weak, tmp_path / "sum")
    shutil.rmtree(package / "generators")
    code, audit = _audit(capsys, str(package), "--mutants", "100")
    assert code == 1
    programs = audit["programs"]
    assert isinstance(programs, list)
    survivors = [p for p in programs if p["status"] == "survived"]
    assert survivors and all(int(p["witness"].split()[0]) > 100 for p in survivors)
    assert any(p["status"] == "equivalent" for p in programs)  # (n > 100 -> n >= 100...)
    notes = audit["notes"]
    assert isinstance(notes, list) and any("shaped as the test cases'" in str(n) for n in notes)
    code, audit = _audit(capsys, str(package), "--mutants", "100", "--augment", "2")
    assert code == 0, audit
    assert (package / "data/secret/audit-1.in").is_file()
    assert (package / "data/secret/audit-1.ans").is_file()
    capsys.readouterr()
    assert verify(["-q", str(package)]) == 0


def test_with_generators_but_no_seeded_command_augment_records_the_input(
    weak: Path, tmp_path: Path, capsys: Capture
) -> None:
    """generators.yaml whose commands take no {seed}: the random inputs are shaped, and
    --augment records a witness as an `in:` entry there (not as a command), which
    generatedata answers; then nothing survives and the package verifies."""
    import yaml

    from problemtools_py.cli.verifyproblem import main as verify

    package = shutil.copytree(weak, tmp_path / "sum")
    plan = package / "generators/generators.yaml"
    plan.write_text(plan.read_text().replace("{seed}", "7"))
    code, audit = _audit(capsys, str(package), "--mutants", "100", "--augment", "2")
    assert code == 0, audit
    secret = yaml.safe_load(plan.read_text())["data"]["secret"]["data"]
    entries = secret if isinstance(secret, dict) else {k: v for e in secret for k, v in e.items()}
    added = {k: v for k, v in entries.items() if str(k).startswith("audit-")}
    assert added and all(isinstance(v, dict) and set(v) == {"in"} for v in added.values())
    assert all(int(v["in"].split()[0]) > 100 for v in added.values())  # (the large lists)
    assert list((package / "data/secret").glob("*audit-1.ans"))  # (generated, answered)
    capsys.readouterr()
    assert verify(["-q", str(package)]) == 0


def test_an_audit_leaves_no_scratch_directory(
    weak: Path, tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its judge's directory of team outputs (up to the output limit a case, in /dev/shm
    where that is a tmpfs: memory) goes with the audit; one was left per package."""
    import tempfile

    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # (scratch.scratch_root: the user's choice)
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    _audit(capsys, str(weak), "--mutants", "2")
    assert sorted(p.name for p in scratch.glob("ptpy-verify-*")) == []
