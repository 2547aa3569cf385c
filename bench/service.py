"""gradeserver under load against gradecode on the same work, both the real commands:
a dataset with one problem (5 tests), R completions (default 2,000; small Python
programs, a quarter wrong). ``gradecode DATASET FILE.jsonl`` grades them as one batch
(its start-up included); ``gradeserver DATASET`` (started before the clock, as a service
is) gets them from N concurrent clients (default 64) in this process over loopback
``/grade`` with ``problem_id``. Every reward over HTTP must equal gradecode's.

Prints tests per second for both and the ratio (the goal: the service within 10 %),
latency percentiles, and the CPU the clients took: they share this machine's cores with
the service, where a trainer's clients would run on its own machines.

Usage: python bench/service.py [--clients N] [--requests R] [--jobs J] [--rounds K]"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from aiohttp import ClientSession, TCPConnector
from benchkit import BIN, gradecode

from problemtools_py.cpus import usable_cores
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file, tests_json
from problemtools_py.dataset.writer import RowWriter

STATEMENT = "Print twice the number."
TESTS = [(f"{i}\n", f"{2 * i}\n") for i in range(1, 6)]
GOOD = "```python\nprint(2 * int(input()))\n```"
BAD = "```python\nprint(int(input()) + 2)\n```"


def make_dataset(root: Path) -> str:
    pid = problem_id(STATEMENT)
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        writer.add(
            {
                "problem_id": pid,
                "statement": STATEMENT,
                "tests_json": tests_json(TESTS),
                "time_limit_s": 2.0,
                "origin_json": origin_json({}),
            }
        )
    return pid


def start_server(dataset: Path, jobs: int, queue: int) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [str(BIN / "gradeserver"), str(dataset), "--port", "0", "-j", str(jobs),
         "--queue", str(queue)],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert server.stdout is not None
    line = server.stdout.readline()
    return server, line.rsplit(" ", 1)[-1].strip()


async def over_http(
    base: str, items: list[dict[str, str]], clients: int
) -> tuple[float, list[float | None], list[float], int]:
    rewards: list[float | None] = [None] * len(items)
    latencies: list[float] = []
    retries = 0
    pending = iter(range(len(items)))
    async with ClientSession(connector=TCPConnector(limit=clients)) as client:

        async def worker() -> None:
            nonlocal retries
            for index in pending:
                sent = time.perf_counter()
                while True:
                    async with client.post(base + "/grade", json=items[index]) as response:
                        if response.status == 503:
                            retries += 1
                            await asyncio.sleep(0.02)
                            continue
                        rewards[index] = (await response.json())["reward"]
                        break
                latencies.append(time.perf_counter() - sent)

        start = time.perf_counter()
        await asyncio.gather(*[worker() for _ in range(clients)])
        elapsed = time.perf_counter() - start
    return elapsed, rewards, latencies, retries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each side")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ptpy-servicebench-"))
    pid = make_dataset(work / "ds")
    items = [{"problem_id": pid, "completion": GOOD if i % 4 else BAD}
             for i in range(args.requests)]  # fmt: skip
    lines = work / "completions.jsonl"
    lines.write_text("".join(json.dumps(item) + "\n" for item in items))
    tests = args.requests * len(TESTS)
    server, base = start_server(work / "ds", args.jobs, 4 * args.clients)
    local_runs, served_runs, latencies, client_cpu, retries = [], [], [], [], 0
    try:
        asyncio.run(over_http(base, items[:100], args.clients))  # warm up
        for _ in range(args.rounds):
            local, rows = gradecode(work / "ds", lines, args.jobs)
            expected = [r["reward"] for r in rows]
            local_runs.append(tests / local)
            cpu = time.process_time()
            served, got, waits, retried = asyncio.run(over_http(base, items, args.clients))
            client_cpu.append(time.process_time() - cpu)
            served_runs.append(tests / served)
            latencies += waits
            retries += retried
            assert got == expected, "a reward over HTTP differs from gradecode's"
    finally:
        server.terminate()
        server.wait(60)
        shutil.rmtree(work, ignore_errors=True)
    report(args, local_runs, served_runs, latencies, client_cpu, retries)


def report(
    args: argparse.Namespace,
    local: list[float],
    served: list[float],
    latencies: list[float],
    client_cpu: list[float],
    retries: int,
) -> None:
    mine, base = statistics.median(served), statistics.median(local)
    cut = statistics.quantiles(latencies, n=100)
    print(
        f"{args.requests} completions x {len(TESTS)} tests, {args.jobs} jobs, "
        f"{args.clients} clients, {args.rounds} alternating rounds (median, range); "
        f"every reward over HTTP equal to gradecode's; {retries} 503s retried"
    )
    print(f"gradecode (batch, start-up included): {base:7.0f} tests/s "
          f"({min(local):.0f}-{max(local):.0f})")  # fmt: skip
    print(f"gradeserver (HTTP /grade)           : {mine:7.0f} tests/s "
          f"({min(served):.0f}-{max(served):.0f})  {mine / base:.2f}x gradecode's")  # fmt: skip
    print(
        f"latency p50 {cut[49] * 1000:.0f} ms, p90 {cut[89] * 1000:.0f} ms, "
        f"p99 {cut[98] * 1000:.0f} ms; the clients' own CPU: "
        f"{statistics.median(client_cpu):.2f} s per round of {args.requests} requests "
        f"on the same {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
