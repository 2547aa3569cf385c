"""No input is an internal error: sample packages broken at random (a file deleted,
emptied, filled with random bytes, its YAML corrupted, a symlink loop, an unknown
format version, a directory where a file belongs) give findings, never exit 3; so do
their YAML files with a value of another type put anywhere in them, checked statically
and judged (every crash of this kind was in the runs: the scorer, the judge)."""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from helpers.packages import SAMPLE_NAMES, SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from problemtools_py.cli.verifyproblem import main
from problemtools_py.yamlfile import load_yaml

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


# values of every YAML type, and the odd ones of each (a list where a number belongs...)
ODD = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.5, -0.0, 1e300]),
    st.sampled_from(["", "x", "0:00", "2025-09", "legacy", "inf", "-inf", "1 2 3", "../x", "*"]),
    st.sampled_from([[], [1], ["a", None], {}, {"a": 1}, {1: 2}, {None: "x"}, [[]]]),
)  # fmt: skip
CHEAP = [s for s in SAMPLE_NAMES if s in ("average", "bigsum", "different", "gensum", "subtasks")]


def _nodes(data: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _nodes(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _nodes(value, (*path, index))
    return found


def _retype(root: Path, pick: int, where: int, value: object) -> None:
    """One value of one of the package's YAML files (or its whole document) replaced."""
    import yaml

    files = sorted(root.rglob("*.yaml"))
    path = files[pick % len(files)]
    data: Any = load_yaml(path, path.name).data
    nodes = _nodes(data)
    at = nodes[where % len(nodes)]
    if not at:
        data = value
    else:
        parent = data
        for step in at[:-1]:
            parent = parent[step]
        parent[at[-1]] = value
    path.write_text(yaml.safe_dump(data), encoding="utf-8")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CHEAP), st.integers(0, 10_000), st.integers(0, 10_000), ODD)
def test_a_value_of_another_type_anywhere_gives_findings(
        sample: str, pick: int, where: int, value: object) -> None:  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="ptpy-retyped-") as tmp:
        root = Path(tmp) / sample
        shutil.copytree(SAMPLES / sample, root, symlinks=True)
        _retype(root, pick, where, value)
        # (-t: a retyped value may be a time limit of minutes, each run of a looping
        # submission then takes that long; reading the value is what is tested here)
        code = main(["-q", "-t", "1", "-p", "config,validators,graders,data,submissions",
                     str(root)])  # fmt: skip
    assert code in (0, 1), (sample, pick, where, value)
