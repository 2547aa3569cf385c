"""No input is an internal error: sample packages broken at random (a file deleted,
emptied, filled with random bytes, its YAML corrupted, a symlink loop, an unknown
format version, a directory where a file belongs) give findings, never exit 3."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from conftest import SAMPLE_NAMES, SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from problemtools_py.cli.verifyproblem import main

MUTATIONS = ("delete", "empty", "bytes", "yaml", "loop", "version", "dir")


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def _mutate(root: Path, kind: str, pick: int, noise: bytes) -> None:
    files = _files(root)
    target = files[pick % len(files)]
    if kind == "delete":
        target.unlink()
    elif kind == "empty":
        target.write_bytes(b"")
    elif kind == "bytes":
        target.write_bytes(noise)
    elif kind == "yaml":
        yamls = [p for p in files if p.suffix == ".yaml"] or [root / "problem.yaml"]
        path = yamls[pick % len(yamls)]
        path.write_bytes(path.read_bytes()[: len(noise)] + b"\n: [\n\t- {x" + noise)
    elif kind == "loop":
        os.symlink("b", target.parent / "a")
        os.symlink("a", target.parent / "b")
    elif kind == "version":
        (root / "problem.yaml").write_bytes(
            b"problem_format_version: " + noise.hex().encode()[:12] + b"\n"
            + (root / "problem.yaml").read_bytes()
        )
    else:
        target.unlink()
        target.mkdir()
        (target / "inside").write_bytes(noise)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAMPLE_NAMES), st.sampled_from(MUTATIONS), st.integers(0, 10_000),
       st.binary(max_size=64))
def test_a_broken_package_gives_findings_not_an_internal_error(
        sample: str, kind: str, pick: int, noise: bytes) -> None:
    with tempfile.TemporaryDirectory(prefix="ptpy-mutant-") as tmp:
        root = Path(tmp) / sample
        shutil.copytree(SAMPLES / sample, root, symlinks=True)
        _mutate(root, kind, pick, noise)
        code = main(["--no-run", "-q", "-p", "config,statement,data", str(root)])
    assert code in (0, 1), (sample, kind, pick, noise)
