"""Trust boundary: what a program causes is charged to the program, never to the judge
(docs/security.md). A wrong completion must not escape its 0.0 as a judge or grader error
(which trainers score as "no reward known"): flooding an interactive validator until it
runs out of memory is a wrong answer; a call-based result line nested deeper than Python
parses is a wrong answer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

from problemtools_py import rewards
from problemtools_py.dataset.judges import judge_json
from problemtools_py.model import load_problem
from problemtools_py.model.judgekind import judge_need


def _inline(root: Path) -> tuple[list[list[str]], str]:
    problem = load_problem(root)
    need = judge_need(problem)
    assert need is not None
    cases = sorted(p.with_suffix("") for p in (root / "data" / "secret").glob("*.in"))[:1]
    tests = [[c.with_suffix(".in").read_text(), c.with_suffix(".ans").read_text()]
             for c in cases]  # fmt: skip
    text = judge_json(root, need, [c.relative_to(root).as_posix() for c in cases])
    assert text is not None
    return tests, text


def test_flooding_an_interactive_validator_is_the_submissions_wrong_answer(
    tmp_path: Path,
) -> None:
    """guess's validator reads a line with an unbounded readline (as many do): a
    submission that never writes a newline makes it run out of memory."""
    tests, judge = _inline(shutil.copytree(SAMPLES / "guess", tmp_path / "guess"))
    flood = "```python\nimport sys\nwhile True:\n    sys.stdout.write('7' * 65536)\n```"
    got = rewards.compute_score("x", flood, tests, extra_info={"judge_json": judge,
                                                               "time_limit": 2}, details=True)  # fmt: skip
    assert (got["score"], got["status"], got["infra_error"]) == (0.0, "wrong_answer", False), got
    assert "ran out of memory on the submission's output" in got["message"]


DEEP = """```python
import os
def add(a, b):
    line = b"\\n\\x1ecallbased-result\\x1e " + b"[" * 20000 + b"\\n"
    for fd in range(1, 12):
        try:
            os.write(fd, line)
        except OSError:
            pass
    os._exit(0)
```"""


@pytest.mark.parametrize("on_infra_error", ["score", "raise"])
def test_a_deeply_nested_result_line_is_a_wrong_answer(on_infra_error: str) -> None:
    apps = json.dumps({"fn_name": "add", "inputs": [[1, 2]], "outputs": [[3]]})
    got = rewards.compute_score("apps", DEEP, apps, on_infra_error=on_infra_error)
    assert (got["score"], got["status"], got["infra_error"]) == (0.0, "wrong_answer", False), got
