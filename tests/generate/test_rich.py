"""A package of our own using every generators.yaml key (tests/helpers/richgen.py):
generated, verified, remade only where it changed, byte-identical with BAPCtools from
PyPI, and hostile generators stopped with an error naming their test case."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import richgen
from helpers.packages import peer_env

from problemtools_py.findings import ProblemReport
from problemtools_py.generate.runner import GenerateOptions, generate_problem
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.verify.verifier import verify_all

SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"


@pytest.fixture(scope="module")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(3) as made:
        yield made


def _generate(root: Path, pool: SandboxPool, seconds: float = 60.0) -> ProblemReport:
    options = GenerateOptions(jobs=2, cache=root.parent / "records", seconds=seconds)
    return generate_problem(root, pool, options)


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _times(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_mtime_ns for p in root.rglob("*.in")}


def test_every_key_generates_and_the_package_verifies(tmp_path: Path, pool: SandboxPool) -> None:
    root = richgen.make(tmp_path / "richgen")
    report = _generate(root, pool)
    assert report.findings == [], report.findings
    names = sorted(_tree(root / "data"))
    assert "secret/07-dir-1.in" in names and "secret/test_group.yaml" in names
    assert (root / "data/secret/07-dir-1.in").read_text() == "1 1 1\n"
    assert (root / "data/secret/02-two.in").read_text() == "4 5\n"  # included from sample
    assert (root / "data/sample/01.in").read_text() == "1 2 3\n"
    (verified,) = verify_all([root], ("data", "validators", "submissions")).problems
    assert verified.errors == 0, verified.findings


def test_only_a_changed_generators_cases_are_remade(tmp_path: Path, pool: SandboxPool) -> None:
    root = richgen.make(tmp_path / "richgen")
    _generate(root, pool)
    before = _times(root / "data")
    assert _generate(root, pool).findings == []
    assert _times(root / "data") == before  # nothing remade
    gen = root / "generators/gen.py"
    gen.write_text(gen.read_text().replace("-50, 50", "-60, 60"))
    assert _generate(root, pool).findings == []
    after = _times(root / "data")
    changed = sorted(name for name in before if after[name] != before[name])
    assert changed == ["secret/05-py-3.in", "secret/06-py-5.in", "secret/13-matched.in"]


@pytest.mark.parametrize("package", ["richgen", "gensum"])
def test_bapctools_writes_the_same_bytes(tmp_path: Path, pool: SandboxPool, bt: Path,
                                         package: str) -> None:
    ours, theirs = tmp_path / "ours" / package, tmp_path / "bt" / package
    for root in (ours, theirs):
        if package == "richgen":
            richgen.make(root)
        else:
            shutil.copytree(SAMPLES / package, root, ignore=shutil.ignore_patterns("data"))
    assert _generate(ours, pool).findings == []
    env = peer_env(PATH=f"{bt.parent}:{os.environ['PATH']}")
    run = subprocess.run([str(bt), "generate", "--no-bar"], cwd=theirs, env=env,
                         capture_output=True, text=True, timeout=600, check=False)
    # (bt's exit code also counts what it thinks of the rest of the package)
    theirs_data = {k: v for k, v in _tree(theirs / "data").items() if "/." not in f"/{k}"}
    assert theirs_data, run.stdout[-3000:] + run.stderr[-2000:]
    assert _tree(ours / "data") == theirs_data, run.stdout[-3000:]


HOSTILE = {
    "loops": ("while True:\n    pass\n", "over its time limit", 2.0),
    "allocates-8-GiB": ("x = bytearray(8 << 30)\nprint(len(x))\n", "over its memory limit",
                        30.0),
    "floods-stdout": ("import sys\nwhile True:\n    sys.stdout.write('9' * 65536)\n",
                      "over its output limit", 30.0),
    # (beside itself: the generator's own directory, bound read-only at /prog/evil.py)
    "writes-outside": ("import os\nopen(os.path.dirname(os.path.abspath(__file__)) + '/x', 'w')"
                       ".write('1')\nopen('../x', 'w').write('1')\n",
                       "read-only file system", 30.0),
}


@pytest.mark.parametrize("source,why,seconds", HOSTILE.values(), ids=list(HOSTILE))
def test_a_hostile_generator_is_stopped(tmp_path: Path, pool: SandboxPool, source: str,
                                        why: str, seconds: float) -> None:
    root = richgen.make(tmp_path / "richgen")
    (root / "generators/evil.py").write_text(source)
    yaml_file = root / "generators/generators.yaml"
    yaml_file.write_text(yaml_file.read_text().replace(
        "      - edge:\n", "      - evil: evil.py\n      - edge:\n"))
    report = _generate(root, pool, seconds=seconds)
    found = [(f.severity.value, f.path, f.message) for f in report.findings]
    assert len(found) == 1 and found[0][:2] == ("error", "data/secret/10-evil"), found
    assert why in found[0][2].lower(), found  # and the case is named
    assert not list((root / "data/secret").glob("10-evil*"))
    assert not (tmp_path / "x").exists()
    with open("/proc/self/mounts", encoding="utf-8") as mounts:
        assert "ptpy-gen" not in mounts.read()
