"""Throughput at verl's layout against one process (issue 57): verl starts
``reward.num_workers`` reward processes per node (8 by default), each calling
``compute_score`` for its share of a batch, several at once; TRL under ``accelerate`` has
one per GPU. Here the same completions are graded by one process (``compute_score_batch``)
and by PROCESSES processes (each its share, THREADS at once, as verl's async reward loop),
side by side, alternating for a few rounds; each side's processes are started and warm
before the clock starts (a trainer's reward workers live for the whole run).

Beside them, the floor: the CPU the programs must burn, summed over the tests and
divided among the cores; and the completions scored 1.0 (all are correct: anything less
is a reward the machine's load took away).

Usage: python bench/layout.py [--completions N] [--processes N] [--threads N]
                              [--burn SECONDS] [--rounds N]"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from problemtools_py.cpus import usable_cores

PROGRAM = """import time
t = time.process_time()
while time.process_time() - t < {burn}:
    pass
a, b = map(int, input().split())
print(a + b)
"""
TESTS = 2


def _row(burn: float) -> tuple[str, str, dict[str, Any]]:
    truth = {"inputs": [f"{i} {i}\n" for i in range(TESTS)],
             "outputs": [f"{2 * i}\n" for i in range(TESTS)]}  # fmt: skip
    completion = "```python\n" + PROGRAM.format(burn=burn) + "```"
    return completion, json.dumps(truth), {"time_limit": max(1.0, 4 * burn)}


def _worker(share: int, threads: int, burn: float, ready: Any, go: Any, out: Any) -> None:
    from problemtools_py.rewards import compute_score

    completion, truth, info = _row(burn)
    compute_score("bench", completion, truth, info)  # (warm: its grader and sandboxes)
    ready.put(True)
    go.wait()
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        found = list(pool.map(lambda _: compute_score("bench", completion, truth, info)["score"],
                              range(share)))  # fmt: skip
    out.put((start, time.perf_counter(), sum(score == 1.0 for score in found)))


def side(processes: int, threads: int, completions: int, burn: float) -> tuple[float, int]:
    """(seconds, completions scored 1.0) for ``completions`` split among ``processes``."""
    ctx = mp.get_context("spawn")
    ready, out, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    shares = [completions // processes + (i < completions % processes) for i in range(processes)]
    workers = [ctx.Process(target=_worker, args=(n, threads, burn, ready, go, out))
               for n in shares]  # fmt: skip
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=300)
    go.set()
    found = [out.get(timeout=3600) for _ in workers]
    for worker in workers:
        worker.join()
    return max(f[1] for f in found) - min(f[0] for f in found), sum(f[2] for f in found)


def floor(completions: int, burn: float) -> float:
    """The CPU the programs must burn (each test's loop), over the cores: no side can be
    faster (the interpreter's start, which a fresh python3 adds, is left out)."""
    return burn * TESTS * completions / usable_cores()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--completions", type=int, default=96)
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--burn", type=float, default=0.05, help="CPU seconds per test")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    one, many = [], []
    for _ in range(args.rounds):
        one.append(side(1, usable_cores(), args.completions, args.burn))
        many.append(side(args.processes, args.threads, args.completions, args.burn))
    low = floor(args.completions, args.burn)
    print(f"{args.completions} completions x {TESTS} tests, {args.burn:g} s of CPU each, "
          f"{usable_cores()} cores, {args.rounds} rounds (median, range)")  # fmt: skip
    for name, runs in (("1 process", one), (f"{args.processes} processes", many)):
        times = [t for t, _ in runs]
        print(f"  {name:>12}: {args.completions / statistics.median(times):6.1f} completions/s "
              f"({args.completions / max(times):.1f}-{args.completions / min(times):.1f}), "
              f"{statistics.median(times) / low:.2f}x the floor, "
              f"scored 1.0: {min(n for _, n in runs)}/{args.completions} at worst")  # fmt: skip
    ratio = statistics.median(t for t, _ in many) / statistics.median(t for t, _ in one)
    print(f"  floor: {low:.2f} s ({args.completions / low:.1f} completions/s); "
          f"{args.processes} processes take {ratio:.2f}x the time of one")  # fmt: skip


if __name__ == "__main__":
    main()
