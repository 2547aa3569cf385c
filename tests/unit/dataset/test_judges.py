"""A problem's judge carried beside its row (dataset.judges): what it holds, that it
makes a package back, and a malformed one named with its row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from problemtools_py.dataset.judges import judge_files, judge_json, materialize, parse
from problemtools_py.errors import FatalError
from problemtools_py.model import load_problem
from problemtools_py.model.judgekind import judge_need

SAMPLES = Path(__file__).resolve().parents[3] / "sample_problems"


def test_it_holds_what_judging_reads_and_nothing_else() -> None:
    files = set(judge_files(SAMPLES / "subtasks"))
    assert "problem.yaml" in files
    assert any(f.startswith("data/secret/") and f.endswith(".yaml") for f in files)
    left_out = ("submissions/", "statement/", "problem_statement/", "input_validators/")
    assert not any(f.startswith(left_out) or f.endswith((".in", ".ans")) for f in files)
    assert any(f.startswith("output_validators/") for f in judge_files(SAMPLES / "divisor"))


def test_a_package_made_back_judges_as_the_original(tmp_path: Path) -> None:
    root = SAMPLES / "divisor"
    need = judge_need(load_problem(root))
    assert need is not None
    cases = ["data/secret/2", "data/sample/1"]
    tests = [((root / f"{c}.in").read_text(), (root / f"{c}.ans").read_text()) for c in cases]
    text = judge_json(root, need, cases)
    assert text is not None and json.loads(text)["kind"] == "custom"
    materialize(parse(text, 2, tmp_path, 0), tests, tmp_path / "back")
    back = load_problem(tmp_path / "back")
    assert back.output_validator is not None and judge_need(back) == need
    assert (tmp_path / "back/data/secret/2.in").read_text() == tests[0][0]
    for rel, data in judge_files(root).items():
        assert (tmp_path / "back" / rel).read_bytes() == data


@pytest.mark.parametrize(("judge", "what"), [
    ("{", "not JSON"),
    ('{"version": 2}', "version 1"),
    ('{"version": 1, "cases": ["data/secret/1"], "files": {}}', "each of the 2 tests"),
    ('{"version": 1, "cases": ["../x", "data/1"], "files": {}}', "no path inside"),
    ('{"version": 1, "cases": ["a", "b"], "files": {"/etc/x": {"text": ""}}}', "no path inside"),
    ('{"version": 1, "cases": ["a", "b"], "files": {"x": {"text": 1, "base64": ""}}}',
     "must be {text} or {base64}"),
])  # fmt: skip
def test_a_malformed_judge_is_named_with_its_row(judge: str, what: str) -> None:
    with pytest.raises(FatalError, match="row 3, column judge_json") as info:
        parse(judge, 2, Path("judged-train.parquet"), 3)
    assert what in str(info.value)
