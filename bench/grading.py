"""Grading throughput: the Grader (sandboxed, a fork per test from a warm interpreter)
against a baseline that starts python3 per test with subprocess.run and the same
comparator, side by side in one run, on three kinds of programs: trivial ones, CPU-heavy
ones (~50 ms of work per test) and big-output ones (~1 MB per test). Both use all cores;
the two sides alternate for a few rounds (the machine's speed drifts) and the medians are
compared. Beside them the floor that counts the work (issue 61): the same programs on the
same tests forked bare from a warm interpreter (benchkit.fork_floor), their CPU over the
cores, and the Grader / floor.

Usage: python bench/grading.py [--completions N] [--tests N] [--jobs N] [--rounds N]"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchkit import fork_floor, passes

from problemtools_py.cpus import usable_cores
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file, tests_json
from problemtools_py.dataset.writer import RowWriter
from problemtools_py.grading import Grader

KINDS = {
    "trivial": (
        "Print the sum of two numbers.",
        "a, b = map(int, input().split())\nprint(a + b)\n",
        lambda i: (f"{i} {i + 1}\n", f"{2 * i + 1}\n"),
    ),
    "cpu-heavy": (
        "Print the sum of squares below 400000 plus the number.",
        "n = int(input())\nprint(sum(k * k for k in range(400000)) + n)\n",
        lambda i: (f"{i}\n", f"{sum(k * k for k in range(400000)) + i}\n"),
    ),
    "big-output": (
        "Print the number 100000 times.",
        "n = input()\nprint((n + '\\n') * 100000, end='')\n",
        lambda i: (f"{i}\n", f"{i}\n" * 100000),
    ),
}


def make_dataset(root: Path, tests: int) -> dict[str, str]:
    rows = []
    for kind, (statement, _, make) in KINDS.items():
        rows.append((problem_id(statement), kind, statement, [make(i) for i in range(tests)]))
    rows.sort()
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        for pid, _, statement, cases in rows:
            writer.add(
                {
                    "problem_id": pid,
                    "statement": statement,
                    "tests_json": tests_json(cases),
                    "time_limit_s": 5.0,
                    "origin_json": origin_json({}),
                }
            )
    return {kind: pid for pid, kind, _, _ in rows}


def baseline(code: str, cases: list[tuple[str, str]], work: Path) -> float:
    """Reward the naive way: python3 per test, stop at the first failure."""
    program = Path(tempfile.mkstemp(dir=work, suffix=".py")[1])
    program.write_text(code)
    return passes(["/usr/bin/python3", str(program)], cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--completions", type=int, default=40)
    parser.add_argument("--tests", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each side")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ptpy-gradebench-"))
    ids = make_dataset(work / "ds", args.tests)
    tests = args.completions * args.tests
    print(
        f"{args.completions} completions x {args.tests} tests per kind, {args.jobs} workers, "
        f"{args.rounds} alternating rounds (median, range)"
    )
    print(f"{'kind':12} {'gradecode tests/s':>24} {'baseline tests/s':>22} {'ratio':>7} "
          f"{'floor tests/s':>14} {'x floor':>7}")  # fmt: skip
    with Grader(work / "ds", jobs=args.jobs) as grader:
        grader.grade(ids["trivial"], f"```python\n{KINDS['trivial'][1]}```")  # warm up
        for kind, (_, code, make) in KINDS.items():
            completion = f"```python\n{code}```"
            cases = [make(i) for i in range(args.tests)]
            ours, theirs = [], []
            for _ in range(args.rounds):
                items = [(ids[kind], completion)] * args.completions
                start = time.perf_counter()
                rewards = [r.reward for r in grader.grade_many(items)]
                ours.append(tests / (time.perf_counter() - start))
                assert rewards == [1.0] * args.completions, rewards
                start = time.perf_counter()
                with ThreadPoolExecutor(args.jobs) as pool:
                    n = args.completions
                    base = list(pool.map(baseline, [code] * n, [cases] * n, [work] * n))
                theirs.append(tests / (time.perf_counter() - start))
                assert base == [1.0] * args.completions
            mine, other = statistics.median(ours), statistics.median(theirs)
            floor_cpu, floor_tests = fork_floor([(code, cases)] * args.completions, work)
            floor = args.jobs * floor_tests / floor_cpu
            print(
                f"{kind:12} {mine:8.1f} ({min(ours):6.1f}-{max(ours):6.1f})"
                f" {other:7.1f} ({min(theirs):5.1f}-{max(theirs):5.1f}) {mine / other:6.1f}x"
                f" {floor:13.1f} {floor / mine:6.2f}x"
            )
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
