"""Issue 57, as a trainer met it: verl starts reward.num_workers processes per node (8
by default), each calling compute_score, each starting a grader sized to every core. On
2 cores, 8 processes x 4 correct completions near their limit (0.3 s of CPU each, time
limit 1 s) scored 0.0 ``harness_overload`` 31 times in 32. With one budget of cores for
every grader on the machine (sandbox.cores), each is scored 1.0, also beside a
``gradecode -j 2`` and a ``gradeserver`` grading at the same time."""

from __future__ import annotations

import json
import multiprocessing as mp
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import requests

from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file
from problemtools_py.dataset.schema import tests_json as encode_tests
from problemtools_py.dataset.writer import RowWriter

BURN = """import time
t = time.process_time()
while time.process_time() - t < 0.3:
    pass
a, b = map(int, input().split())
print(a + b)
"""
COMPLETION = f"```python\n{BURN}```"
TESTS = [("1 2\n", "3\n"), ("3 4\n", "7\n")]
TRUTH = json.dumps({"inputs": [i for i, _ in TESTS], "outputs": [o for _, o in TESTS]})
STATEMENT = "Print the sum of two numbers, after some thought."
BIN = Path(sys.executable).parent


def _reward_worker(count: int, out: Any) -> None:
    """A verl reward process: its share of the batch, all at once."""
    from problemtools_py.rewards import compute_score

    with ThreadPoolExecutor(count) as pool:
        found = list(pool.map(lambda _: compute_score("x", COMPLETION, TRUTH, {"time_limit": 1.0}),
                              range(count)))  # fmt: skip
    out.put([(r["score"], r["status"]) for r in found])


def _dataset(root: Path) -> Path:
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        writer.add({"problem_id": problem_id(STATEMENT), "statement": STATEMENT,
                    "tests_json": encode_tests(TESTS), "time_limit_s": 1.0,
                    "origin_json": origin_json({})})  # fmt: skip
    return root


def test_eight_reward_processes_beside_gradecode_and_gradeserver_score_every_completion(
    tmp_path: Path,
) -> None:
    data = _dataset(tmp_path / "ds")
    lines = tmp_path / "c.jsonl"
    line = {"problem_id": problem_id(STATEMENT), "completion": COMPLETION}
    lines.write_text("".join(json.dumps(line) + "\n" for _ in range(8)))
    server = subprocess.Popen([str(BIN / "gradeserver"), str(data), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    try:
        assert server.stdout is not None
        address = re.search(r"http://[\d.]+:\d+", server.stdout.readline())
        assert address is not None
        ctx = mp.get_context("spawn")
        out = ctx.Queue()
        workers = [ctx.Process(target=_reward_worker, args=(4, out)) for _ in range(8)]
        for worker in workers:
            worker.start()
        gradecode = subprocess.Popen([str(BIN / "gradecode"), str(data), str(lines), "-j", "2",
                                      "-q", "-o", str(tmp_path / "out.jsonl")])  # fmt: skip
        body = [{"problem_id": problem_id(STATEMENT), "completion": COMPLETION}] * 8
        served = requests.post(f"{address.group(0)}/grade", json=body, timeout=600).json()
        rewarded = [r for _ in workers for r in out.get(timeout=600)]
        for worker in workers:
            worker.join()
        assert gradecode.wait(timeout=600) == 0
    finally:
        server.terminate()
        server.wait(timeout=60)
        server.stdout.close()  # type: ignore[union-attr]
    assert rewarded == [(1.0, "ok")] * 32
    graded = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(g["reward"], g["status"]) for g in graded] == [(1.0, "ok")] * 8
    assert [(g["reward"], g["status"]) for g in served] == [(1.0, "ok")] * 8
