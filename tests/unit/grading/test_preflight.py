"""grading/preflight.py: a trainer's data file read as the reward reads it, every row the
reward would flag named with its index and why (issue 58)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.trainer_rows import BAD, CASES, trl_rows, verl_rows, write_parquet

from problemtools_py.grading.preflight import Preflight, read_rows, reward_args
from problemtools_py.grading.rewardargs import ArgumentError, RewardError
from problemtools_py.rewards import compute_score


def bad_rows(path: Path, **kwargs: Any) -> dict[int, str]:
    return {bad.index: bad.reason for bad in Preflight(kwargs).check(path)}


def test_every_bad_row_is_named_and_only_those(tmp_path: Path) -> None:
    """The done-when file: each row that would be flagged, by its index, in parquet (as
    verl's preprocess writes it) and in JSON lines, whichever column TRL reads."""
    verl = write_parquet(verl_rows(), tmp_path / "train.parquet")
    trl = tmp_path / "trl.jsonl"
    trl.write_text("".join(json.dumps(row) + "\n" for row in trl_rows()))
    for path in (verl, trl):
        found = bad_rows(path)
        assert sorted(found) == BAD, found
    reasons = bad_rows(verl)
    assert "ground_truth is None" in reasons[CASES.index(next(c for c in CASES if c.ground_truth is None))]
    assert any("fn_name" in r for r in reasons.values())
    assert any("Python 2 is not graded" in r for r in reasons.values())
    assert any("give dataset=" in r for r in reasons.values())


def test_the_preflight_says_what_the_reward_does(tmp_path: Path) -> None:
    """A row is bad for the preflight exactly when compute_score flags it."""
    for row, case in zip(verl_rows(), CASES, strict=True):
        _, truth, info = reward_args(row, "ground_truth")
        flagged = compute_score("code", "", truth, info)["status"] == "bad_row"
        assert flagged == case.bad, case.why
        assert (Preflight({}).reason(row) is not None) == case.bad, case.why


def test_the_rewards_keyword_arguments_decide_too(tmp_path: Path) -> None:
    """--kwargs as the trainer gives them: a misspelled one is the configuration's error
    (before any row); a mode or dataset changes which rows can be graded."""
    with pytest.raises(ArgumentError, match="did you mean 'mode'"):
        Preflight({"mdoe": "pass-rate"})
    path = write_parquet(verl_rows(), tmp_path / "t.parquet")
    found = bad_rows(path, mode="first-n")
    assert sorted(found) == list(range(len(CASES)))  # (first-n needs n: every row)
    assert set(found.values()) == {"mode first-n needs n, a positive number of tests"}


def test_problem_ids_are_looked_up_in_the_dataset(tmp_path: Path) -> None:
    from helpers.dataset_gen import write_dataset

    root = tmp_path / "ds"
    ids = sorted(write_dataset(root, count=3))
    rows = [{"ground_truth": pid} for pid in ids[:2]] + [{"ground_truth": "ffffffffffffffff"}]
    path = tmp_path / "ids.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    found = {bad.index: bad.reason for bad in Preflight({}, dataset=str(root)).check(path)}
    assert list(found) == [2] and "no problem with id 'ffffffffffffffff'" in found[2]
    rows = [{"problem_id": "x", "tests_json": json.dumps([["1\n", "1\n"]]), "time_limit_s": t}
            for t in (1.0, 0.0)]  # (this dataset's own rows: its time limit column)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    found = bad_rows(path)
    assert list(found) == [1] and "time_limit must be in (0, 120] seconds" in found[1]


@pytest.mark.parametrize(
    ("row", "layout"),
    [
        ({"reward_model": {"ground_truth": "[]"}, "extra_info": {}}, "verl"),
        ({"ground_truth": "[]", "time_limit": 2}, "columns"),
        ({"problem_id": "x", "tests_json": "[]"}, "dataset"),
        ({"verification_info": {"test_cases": []}}, "verification_info"),
        ({"input_output": "{}"}, "dataset's own row"),
        ({"public_tests": {}, "private_tests": {}}, "dataset's own row"),
        ({"public_test_cases": "[]", "metadata": "{}"}, "dataset's own row"),
    ],
)
def test_each_layout_is_read_as_its_trainer_hands_it(row: dict[str, Any], layout: str) -> None:
    assert reward_args(row, "ground_truth")[0] == layout


def test_a_row_without_tests_says_what_it_has() -> None:
    with pytest.raises(RewardError, match="the row has answer, prompt; a reward reads"):
        reward_args({"prompt": "p", "answer": "42"}, "ground_truth")


def test_the_datasets_own_rows_are_graded_as_given(tmp_path: Path) -> None:
    """CodeContests', APPS', open-r1's and LiveCodeBench's own columns, limits included."""
    rows = [
        {"name": "cc", "public_tests": {"input": ["1\n"], "output": ["1\n"]},
         "private_tests": {"input": [], "output": []}, "time_limit": {"seconds": 2, "nanos": 0},
         "memory_limit_bytes": 256 << 20},
        {"name": "cc-bad", "public_tests": {"input": ["1\n"], "output": []}},
        {"problem_id": "apps", "input_output": json.dumps({"inputs": ["1\n"], "outputs": ["1\n"]})},
        {"verification_info": json.dumps({"language": "python", "test_cases": [
            {"input": "1\n", "output": "1\n", "type": "stdin_stdout"}]}), "memory_limit": 256},
        {"public_test_cases": json.dumps([{"input": "1\n", "output": "1\n", "testtype": "stdin"}]),
         "private_test_cases": "", "metadata": "{}"},
    ]  # fmt: skip
    path = tmp_path / "own.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    found = bad_rows(path)
    assert list(found) == [1] and "input and output must be lists of one length" in found[1]
    rows[0]["time_limit"] = {"seconds": 0, "nanos": 0}
    path.write_text(json.dumps(rows[0]) + "\n")
    assert "time_limit must be in (0, 120] seconds" in bad_rows(path)[0]


def test_bad_lines_and_files(tmp_path: Path) -> None:
    """A line that is no JSON object is a bad row; a file that is no parquet is the error."""
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"ground_truth": "[[\\"1\\", \\"1\\"]]"}\n\n[1, 2]\n{oops\n')
    assert [(i, line) for i, line, _ in read_rows(path)] == [(0, 1), (1, 3), (2, 4)]
    found = bad_rows(path)
    assert found == {1: "a row must be an object, not list",
                     2: found[2]} and found[2].startswith("no JSON")  # fmt: skip
    fake = tmp_path / "y.parquet"
    fake.write_bytes(b"PAR1" + b"\0" * 64)
    from problemtools_py.errors import FatalError

    with pytest.raises(FatalError, match="not a readable parquet file"):
        list(read_rows(fake))
    array = tmp_path / "z.json"
    array.write_text(json.dumps([{"ground_truth": None}, {"ground_truth": "[[\"1\", \"1\"]]"}]))
    assert list(bad_rows(array)) == [0]


def test_a_line_over_the_bound_is_one_bad_row_read_a_bound_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from problemtools_py.grading import preflight

    monkeypatch.setattr(preflight, "MAX_LINE", 64)
    path = tmp_path / "long.jsonl"
    good = json.dumps({"ground_truth": '[["1", "1"]]'})
    path.write_text(json.dumps({"ground_truth": "x" * 1000}) + "\n" + good + "\n")
    rows = list(read_rows(path))
    assert [(i, line) for i, line, _ in rows] == [(0, 1), (1, 2)]
    assert rows[0][2] == "a line over 0 MiB" and rows[1][2] == json.loads(good)
