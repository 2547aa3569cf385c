"""gradeserver under load, beside the Grader doing the same work in-process: N clients
(default 64) send R requests (default 2,000; small Python completions, 5 tests each) to
/grade on loopback; every answer must be the in-process reward. Prints throughput (tests
per second) for both, the ratio, and the service's latency percentiles.

Usage: python bench/service.py [--clients N] [--requests R] [--jobs J]"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from aiohttp import ClientSession
from aiohttp.test_utils import TestServer

from problemtools_py.cpus import usable_cores
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import GradeResult, Settings
from problemtools_py.grading.service import Service

TESTS = [[f"{i}\n", f"{2 * i}\n"] for i in range(1, 6)]
GOOD = "```python\nprint(2 * int(input()))\n```"
BAD = "```python\nprint(int(input()) + 2)\n```"


def completions(count: int) -> list[str]:
    return [GOOD if i % 4 else BAD for i in range(count)]


def in_process(grader: Grader, items: list[str]) -> tuple[float, list[float | None]]:
    pairs = tuple((a, b) for a, b in TESTS)
    start = time.perf_counter()
    rewards = [r.reward for r in grader_many(grader, pairs, items)]
    return time.perf_counter() - start, rewards


def grader_many(
    grader: Grader, pairs: tuple[tuple[str, str], ...], items: list[str]
) -> list[GradeResult]:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(grader.jobs) as pool:
        return list(pool.map(lambda c: grader.grade_tests(pairs, 2.0, c), items))


async def over_http(
    grader: Grader, jobs: int, items: list[str], clients: int
) -> tuple[float, list[float | None], list[float]]:
    server = TestServer(Service(grader, jobs, 4 * clients).app(), host="127.0.0.1")
    await server.start_server()
    url = str(server.make_url("/grade"))
    rewards: list[float | None] = [None] * len(items)
    latencies: list[float] = []
    queue: asyncio.Queue[int] = asyncio.Queue()
    for index in range(len(items)):
        queue.put_nowait(index)
    async with ClientSession() as client:

        async def worker() -> None:
            while not queue.empty():
                index = queue.get_nowait()
                while True:
                    sent = time.perf_counter()
                    async with client.post(
                        url, json={"tests": TESTS, "completion": items[index]}
                    ) as r:
                        if r.status == 503:
                            await asyncio.sleep(0.02)
                            continue
                        rewards[index] = (await r.json())["reward"]
                    latencies.append(time.perf_counter() - sent)
                    break

        start = time.perf_counter()
        await asyncio.gather(*[worker() for _ in range(clients)])
        elapsed = time.perf_counter() - start
    await server.close()
    return elapsed, rewards, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    args = parser.parse_args()
    items = completions(args.requests)
    tests = args.requests * len(TESTS)
    with Grader(None, Settings(), args.jobs) as grader:
        in_process(grader, items[:50])  # warm up
        local, expected = in_process(grader, items)
        served, got, latencies = asyncio.run(over_http(grader, args.jobs, items, args.clients))
    assert got == expected, "a reward over HTTP differs from the in-process one"
    quantiles = statistics.quantiles(latencies, n=100)
    print(
        f"{args.requests} completions x {len(TESTS)} tests, {args.jobs} jobs, "
        f"{args.clients} clients: every answer equal to the in-process reward"
    )
    print(f"in-process Grader : {tests / local:8.0f} tests/s")
    print(
        f"gradeserver (HTTP): {tests / served:8.0f} tests/s  "
        f"({served / local:.2f}x the in-process time)"
    )
    print(
        f"latency p50 {quantiles[49] * 1000:.0f} ms, p90 {quantiles[89] * 1000:.0f} ms, "
        f"p99 {quantiles[98] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
