"""verl's legacy PRIME reward manager against its naive one on the same rows (issue 58):
PRIME sends every completion of a batch to a pool of forked processes (64 by default,
made anew and terminated for each batch: verl's own ``parallel_compute_score_async``,
run from its wheel in .venv/clients), each calling ``compute_score_float``; naive calls
``compute_score`` for each completion in turn in the trainer's process. Several batches
each way, alternating, the first of each side included (a trainer pays it too).

Beside them, the floor: the CPU the programs must burn (their CPU time summed, over the
cores), so that a side's figure reads as a multiple of the work.

Usage: python bench/prime.py [--rows N] [--batches N] [--processes N] [--cpp]"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from helpers.clientcode import functions

from problemtools_py import rewards
from problemtools_py.cpus import usable_cores

BURN = 0.02  # CPU seconds each test's program burns
PROGRAM = ("import time\nt = time.process_time()\nwhile time.process_time() - t < {burn}:\n"
           "    pass\nprint(input())\n")  # fmt: skip


CPP = ("```cpp\n#include <iostream>\n#include <string>\nint main(){std::string s;"
       "std::getline(std::cin, s);std::cout << s << std::endl;}\n```")


def rows(count: int, cpp: bool) -> list[tuple[str, str, dict[str, Any]]]:
    """(completion, ground truth, extra_info): APPS tests of three cases, every third
    completion wrong; with ``cpp`` every other right one in C++ (as open-r1's rows)."""
    truth = json.dumps({"inputs": ["1\n", "2\n", "3\n"], "outputs": ["1\n", "2\n", "3\n"]})
    right = "```python\n" + PROGRAM.format(burn=BURN) + "```"
    wrong = "```python\nprint(0)\n```"
    return [(wrong if i % 3 == 2 else CPP if cpp and i % 2 else right, truth,
             {"index": i, "language": "cpp" if cpp and i % 2 and i % 3 != 2 else None})
            for i in range(count)]  # fmt: skip


def prime(batch: list[tuple[str, str, dict[str, Any]]], processes: int) -> list[float]:
    space = functions("verl/workers/reward_manager/prime.py",
                      ("single_compute_score", "parallel_compute_score_async"),
                      {"asyncio": asyncio, "ProcessPoolExecutor": ProcessPoolExecutor,
                       "partial": partial, "psutil": psutil,
                       **functions("verl/utils/ray_utils.py", ("get_event_loop",),
                                   {"asyncio": asyncio})})  # fmt: skip
    completions, truths, infos = zip(*batch, strict=True)
    return list(asyncio.run(space["parallel_compute_score_async"](
        rewards.compute_score_float, list(completions), list(truths), ["code"] * len(batch),
        list(infos), num_processes=processes)))  # fmt: skip


def naive(batch: list[tuple[str, str, dict[str, Any]]]) -> list[float]:
    return [rewards.compute_score("code", c, t, i)["score"] for c, t, i in batch]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=31)
    parser.add_argument("--batches", type=int, default=3)
    parser.add_argument("--processes", type=int, default=64)
    parser.add_argument("--cpp", action="store_true", help="every other right row in C++")
    args = parser.parse_args()
    batch = rows(args.rows, args.cpp)
    expected = [0.0 if i % 3 == 2 else 1.0 for i in range(args.rows)]
    times: dict[str, list[float]] = {"prime": [], "naive": []}
    for _ in range(args.batches):
        for name in ("prime", "naive"):
            start = time.perf_counter()
            got = prime(batch, args.processes) if name == "prime" else naive(batch)
            times[name].append(time.perf_counter() - start)
            assert got == expected, (name, got)
    cpu = sum(3 * BURN for c, _, _ in batch if "process_time" in c)  # (the Python ones)
    cpu /= usable_cores()
    print(f"{args.rows} rows a batch, {args.batches} batches; floor (the programs' CPU over "
          f"{usable_cores()} cores) {cpu:.2f} s a batch")
    for name, seconds in times.items():
        each = ", ".join(f"{s:.2f}" for s in seconds)
        print(f"{name:>6}: {each} s a batch (mean {sum(seconds) / len(seconds):.2f} s, "
              f"{sum(seconds) / len(seconds) / cpu:.1f}x the floor)")
    print(f"prime / naive: {sum(times['prime']) / sum(times['naive']):.2f}x")
    rewards.close()


if __name__ == "__main__":
    main()
