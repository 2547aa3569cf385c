"""Trust boundary: a request, a dataset row's ground truth and a caller's options
(docs/security.md). Nested or malformed tests are the caller's error (400 from
gradeserver, RewardError from compute_score), never a traceback; ``--python`` binds only
the prefixes the interpreter reports, never the directory holding a link to it, and never
/ or a home directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from problemtools_py import rewards
from problemtools_py.errors import FatalError
from problemtools_py.judge import interpreter

CODE = "```python\nprint(1)\n```"


def _nested(depth: int) -> object:
    value: object = [["1", "1"]]
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("tests", [_nested(900), "[" * 900 + "]" * 900, _nested(40)])
def test_nested_tests_are_a_reward_error(tests: object) -> None:
    with pytest.raises(rewards.RewardError, match=r"nested deeper|nested too"):
        rewards.compute_score("x", CODE, tests, on_bad_row="raise")


def test_a_nested_judge_is_a_reward_error() -> None:
    with pytest.raises(rewards.RewardError, match=r"judge_json.*nested too deeply"):
        rewards.compute_score(
            "x", CODE, [["1", "1"]], extra_info={"judge_json": "[" * 100_000}, on_bad_row="raise"
        )


def test_nested_tests_are_flagged_by_gradeserver() -> None:
    """Tests nested 900 deep, a judge_json of 100,000 brackets: the item flagged bad_row
    (issue 58: never a 500, never a traceback), the server serving on."""
    import requests
    from grading.test_fusion_client import start, stop

    proc, url = start()
    try:
        answer = requests.post(f"{url}/grade", json={"tests": _nested(900), "completion": CODE},
                               timeout=60)  # fmt: skip
        got = answer.json()
        assert answer.status_code == 200 and got["status"] == "bad_row", answer.text
        assert "nested" in got["message"] and "Traceback" not in answer.text
        answer = requests.post(f"{url}/grade", timeout=60, json={
            "tests": [["1", "1"]], "completion": CODE, "judge_json": "[" * 100_000})  # fmt: skip
        got = answer.json()
        assert got["status"] == "bad_row" and "nested too deeply" in got["message"], answer.text
    finally:
        stop(proc)


def test_python_given_as_a_link_binds_nothing_beside_it(tmp_path: Path) -> None:
    """A key file beside a link to the system's python3 was bound into every jail."""
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "key").write_text("secret\n")
    (keys / "py").symlink_to("/usr/bin/python3")
    interpreter.find.cache_clear()
    found = interpreter.find(str(keys / "py"))
    assert all(not str(keys).startswith(host) and not host.startswith(str(keys))
               for host, _ in found.binds), found  # fmt: skip
    assert os.path.realpath(found.executable) == os.path.realpath("/usr/bin/python3")


def test_python_whose_prefix_is_a_home_directory_is_refused(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    home = tmp_path / "home"
    (home / "bin").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    interpreter.find.cache_clear()
    # (an interpreter that reports the home directory as its prefix)
    fake = home / "bin" / "python3"
    fake.write_text(f'#!/bin/sh\necho \'["{fake}", ["{home}"], [3, 11]]\'\n')
    fake.chmod(0o755)
    with pytest.raises(FatalError, match="is / or a home directory"):
        interpreter.find(str(fake))
    interpreter.find.cache_clear()
