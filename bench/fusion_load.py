"""gradeserver's /run_code through SandboxFusion's own client (``sandbox-fusion`` 0.3.7),
as verl sends it with ``max_concurrent=512`` (issue 43): 512 requests at once, each one
run of a program that computes for 50 ms of CPU, every answer checked (a lost reward is
any request that raised, or came back without the right output). Beside it, ``gradecode``
on the same 512 (program, test) pairs as one batch (its start-up included), alternating
rounds. The physical floor: 512 x 50 ms of CPU over the cores.

Usage: python bench/fusion_load.py [--requests N] [--jobs J] [--rounds K]"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchkit import BIN, gradecode
from sandbox_fusion import RunCodeRequest, run_code

from problemtools_py.cpus import usable_cores
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file, tests_json
from problemtools_py.dataset.writer import RowWriter

CPU_SECONDS = 0.05
PROGRAM = ("import time\nstart = time.process_time()\n"
           f"while time.process_time() - start < {CPU_SECONDS}:\n    pass\n"
           "print(2 * int(input()))\n")  # fmt: skip


def make_dataset(root: Path) -> None:
    statement = "Print twice the number, after thinking for a while."
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        writer.add({"problem_id": problem_id(statement), "statement": statement,
                    "tests_json": tests_json([("21\n", "42\n")]), "time_limit_s": 10.0,
                    "origin_json": origin_json({})})  # fmt: skip


def start_server(jobs: int) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen([str(BIN / "gradeserver"), "--port", "0", "-j", str(jobs)],
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert server.stdout is not None
    return server, server.stdout.readline().rsplit(" ", 1)[-1].strip()


def through_client(url: str, requests: int) -> tuple[float, int]:
    """Seconds for ``requests`` concurrent /run_code calls, and how many lost their reward."""

    def one(index: int) -> bool:
        try:
            got = run_code(RunCodeRequest(code=PROGRAM, language="python", stdin="21\n",
                                          run_timeout=10), endpoint=url)  # fmt: skip
        except Exception:  # (the client raised: a lost reward)
            return False
        return got.status == "Success" and got.run_result.stdout == "42\n"

    start = time.perf_counter()
    with ThreadPoolExecutor(requests) as pool:
        answers = list(pool.map(one, range(requests)))
    return time.perf_counter() - start, answers.count(False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=512)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ptpy-fusionbench-"))
    make_dataset(work / "ds")
    lines = work / "completions.jsonl"
    pid = problem_id("Print twice the number, after thinking for a while.")
    item = {"problem_id": pid, "completion": f"```python\n{PROGRAM}```"}
    lines.write_text((json.dumps(item) + "\n") * args.requests)
    server, url = start_server(args.jobs)
    local, served, lost = [], [], 0
    try:
        through_client(url, 16)  # warm up
        for _ in range(args.rounds):
            seconds, rows = gradecode(work / "ds", lines, args.jobs)
            assert all(r["reward"] == 1.0 for r in rows), "gradecode lost a reward"
            local.append(args.requests / seconds)
            seconds, missing = through_client(url, args.requests)
            served.append(args.requests / seconds)
            lost += missing
    finally:
        server.terminate()
        server.wait(60)
        shutil.rmtree(work, ignore_errors=True)
    floor = args.jobs / CPU_SECONDS
    mine, base = statistics.median(served), statistics.median(local)
    print(f"{args.requests} concurrent requests of a {CPU_SECONDS * 1000:.0f} ms program, "
          f"{args.jobs} jobs, {args.rounds} alternating rounds (median, range)")  # fmt: skip
    print(f"gradecode (batch, start-up included)  : {base:6.1f} runs/s "
          f"({min(local):.1f}-{max(local):.1f})")  # fmt: skip
    print(f"gradeserver via SandboxFusion's client: {mine:6.1f} runs/s "
          f"({min(served):.1f}-{max(served):.1f})  {mine / base:.2f}x gradecode's")  # fmt: skip
    print(f"physical floor: {floor:.1f} runs/s (the CPU alone); lost rewards: {lost} "
          f"of {args.requests * args.rounds}")  # fmt: skip


if __name__ == "__main__":
    main()
