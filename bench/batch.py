"""Grading a batch as a trainer does, start-up included: the real ``gradecode`` command on
N honest completions (default 800 and 80; small Python programs on problems of 5 to 8
tests, most right, some wrong, some crashing) against the baseline a team would write
(a fresh ``python3`` per test, stop at the first failure, one thread per core), side by
side, alternating. Both must give the same rewards. Beside them the floor: a fork from a
warm interpreter that runs the test's code and exits, with no isolation at all, per test
run, on all cores.

Usage: python bench/batch.py [--sizes 800,80] [--rounds K] [--jobs J]"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from benchkit import fork_floor, gradecode, passes, timed_map, write_completions

from problemtools_py.cpus import usable_cores
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file, tests_json
from problemtools_py.dataset.writer import RowWriter

# statement, right program, wrong program, test maker
Spec = tuple[str, str, str, Callable[[int], tuple[str, str]]]
PROBLEMS_SPEC: list[Spec] = [
    ("Print the sum of two numbers.", "a, b = map(int, input().split())\nprint(a + b)\n",
     "a, b = map(int, input().split())\nprint(a - b)\n",
     lambda i: (f"{i} {i + 3}\n", f"{2 * i + 3}\n")),
    ("Print the input backwards.", "print(input()[::-1])\n", "print(input())\n",
     lambda i: (f"ab{i}c\n", f"c{str(i)[::-1]}ba\n")),
    ("Print the largest of the numbers.", "print(max(map(int, input().split())))\n",
     "print(min(map(int, input().split())))\n", lambda i: (f"{i} {i + 7} 2\n", f"{i + 7}\n")),
    ("Print the number of words.", "print(len(input().split()))\n", "print(len(input()))\n",
     lambda i: ("x " * (i + 1) + "\n", f"{i + 1}\n")),
]  # fmt: skip
CRASH = "import sys\nsys.exit(input() and 3)\n"


def make_dataset(
    root: Path, spec: Sequence[Spec] = PROBLEMS_SPEC
) -> list[tuple[str, str, str, list[tuple[str, str]]]]:
    """A dataset of ``spec``'s problems (also bench/cpp_grading.py's): the i-th has 5 + i
    tests; (problem id, right program, wrong program, tests) each."""
    made = []
    for index, (statement, right, wrong, test) in enumerate(spec):
        cases = [test(i) for i in range(5 + index)]  # 5 to 8 tests
        made.append((problem_id(statement), right, wrong, cases))
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        for (pid, _, _, cases), (statement, *_) in sorted(zip(made, spec, strict=True)):
            writer.add({"problem_id": pid, "statement": statement, "tests_json": tests_json(cases),
                        "time_limit_s": 2.0, "origin_json": origin_json({})})  # fmt: skip
    return made


def completions(problems: list[tuple[str, str, str, list[tuple[str, str]]]],
                count: int) -> list[tuple[str, str, list[tuple[str, str]]]]:  # fmt: skip
    """(problem id, program, tests): 65 % right, 25 % wrong, 10 % crashing."""
    pick = random.Random(count)
    out = []
    for _ in range(count):
        pid, right, wrong, cases = pick.choice(problems)
        roll = pick.random()
        out.append((pid, right if roll < 0.65 else wrong if roll < 0.9 else CRASH, cases))
    return out


def fresh(code: str, cases: list[tuple[str, str]], work: Path) -> float:
    program = Path(tempfile.mkstemp(dir=work, suffix=".py")[1])
    program.write_text(code)
    return passes(["/usr/bin/python3", str(program)], cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="800,80")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ptpy-batchbench-"))
    problems = make_dataset(work / "ds")
    print(f"{args.jobs} cores, {args.rounds} alternating rounds (median, range); floor: the "
          "programs forked bare from a warm interpreter, their CPU over the cores")  # fmt: skip
    print(f"{'batch':>6} {'tests':>6} {'gradecode tests/s':>24} {'fresh python3 tests/s':>24}"
          f" {'ratio':>6} {'floor tests/s':>14} {'x floor':>7}")  # fmt: skip
    for size in (int(s) for s in args.sizes.split(",")):
        items = completions(problems, size)
        floor_cpu, floor_tests = fork_floor([(code, cases) for _, code, cases in items], work)
        floor = args.jobs * floor_tests / floor_cpu
        ours, theirs = [], []
        for _ in range(args.rounds):
            lines = write_completions(work / "completions.jsonl", items, "python")
            seconds, rows = gradecode(work / "ds", lines, args.jobs, "-q")
            rewards, tests = [r["reward"] for r in rows], sum(r["tests_run"] for r in rows)
            ours.append(tests / seconds)
            base_seconds, base = timed_map(lambda item: fresh(item[1], item[2], work), items,
                                           args.jobs)  # fmt: skip
            theirs.append(tests / base_seconds)
            assert rewards == base, "gradecode and the baseline disagree"
        mine, other = statistics.median(ours), statistics.median(theirs)
        print(f"{size:>6} {tests:>6} {mine:9.0f} ({min(ours):5.0f}-{max(ours):5.0f})"
              f"      {other:9.0f} ({min(theirs):5.0f}-{max(theirs):5.0f})"
              f"    {mine / other:5.1f}x {floor:13.0f} {floor / mine:6.2f}x")  # fmt: skip
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
