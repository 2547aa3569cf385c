"""'All cores' is the cores this process may run on, not the machine's."""

from __future__ import annotations

import os

import pytest

from problemtools_py.cli import gradecode, kattis2parquet
from problemtools_py.cpus import usable_cores


def test_usable_cores_follow_the_affinity(monkeypatch: pytest.MonkeyPatch) -> None:
    assert usable_cores() == len(os.sched_getaffinity(0))
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {3})
    assert usable_cores() == 1  # a container allowed one core of many


def test_without_affinity_every_core_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "sched_getaffinity")
    assert usable_cores() == (os.cpu_count() or 1)


def test_commands_default_to_the_usable_cores() -> None:
    args = kattis2parquet.build_parser().parse_args(["pkg", "-o", "out"])
    assert args.jobs == usable_cores()
    # gradecode's: not given (every core here; with --ray, every CPU of the cluster)
    assert gradecode.build_parser().parse_args(["ds", "c.jsonl"]).jobs is None
    assert "every CPU of the cluster" in gradecode.build_parser().format_help()
