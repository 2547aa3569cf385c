"""Which problems need their own judge (model.judgekind): each kind from a bundled sample,
and the group-level validator flags a legacy package sets in a testdata.yaml."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from problemtools_py.model import load_problem
from problemtools_py.model.judgekind import JudgeKind, JudgeNeed, judge_need

SAMPLES = Path(__file__).resolve().parents[3] / "sample_problems"


@pytest.mark.parametrize(("name", "need"), [
    ("hello", None),
    ("gensum", None),
    ("average", JudgeNeed(JudgeKind.FLAGS, "float_tolerance 1e-6")),
    ("divisor", JudgeNeed(JudgeKind.CUSTOM)),
    ("guess", JudgeNeed(JudgeKind.INTERACTIVE)),
    ("hilo", JudgeNeed(JudgeKind.INTERACTIVE)),
    ("twopass", JudgeNeed(JudgeKind.MULTI_PASS)),
    ("bigsum", JudgeNeed(JudgeKind.SCORING)),
    ("subtasks", JudgeNeed(JudgeKind.SCORING)),
])  # fmt: skip
def test_each_sample_has_its_judge(name: str, need: JudgeNeed | None) -> None:
    assert judge_need(load_problem(SAMPLES / name)) == need


def test_flags_of_a_test_group_count(tmp_path: Path) -> None:
    """A tolerance set for data/secret only used to pass for the comparator's problem."""
    shutil.copytree(SAMPLES / "hello", tmp_path / "hello")
    (tmp_path / "hello/data/secret/testdata.yaml").write_text(
        "output_validator_flags: case_sensitive space_change_sensitive\n"
    )
    found = judge_need(load_problem(tmp_path / "hello"))
    assert found == JudgeNeed(JudgeKind.FLAGS, "case_sensitive space_change_sensitive")
    assert found.reason == "validator flags the comparator cannot reproduce"
