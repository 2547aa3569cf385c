"""auditdata on a dataset of 100 problems, 20 mutants each (issue 46's figure): the real
command, run twice (its kill rates must be the same both times), timed; beside it, the
same audit done the ad-hoc way on one row of each kind (each mutant on each test as a
plain ``python3 prog.py`` started by subprocess, no sandbox, up to its first timeout;
no random inputs for survivors), scaled to all, with its CPU time; and the floor: the
CPU time the runs that loop must spend to reach the time limit (2 s each), spread over
the cores.

The problems are ten kinds of small task (sums, counting loops, prefix sums, primes,
strings, a 3x+1 walk whose mutants loop forever...) in ten variants each, 8 tests
apiece, their tests weak on purpose (values never large): every row has a Python
reference to mutate.

Usage: python bench/audit.py [--problems N] [--mutants N] [--jobs N] [--keep DIR]"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from problemtools_py.cpus import usable_cores

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.dataset_gen import write_rows

KINDS = {
    "sum": ("Given $n$ ($1 \\le n \\le 1000$) and $a_i$ ($1 \\le a_i \\le 10^9$), print the "
            "sum plus {k}.",
            "n = int(input())\nprint(sum(map(int, input().split())) + {k})\n"),
    "count": ("Given $n$ and $d$ ($1 \\le d \\le n \\le 10^4$), count the i in 1..n with "
              "i mod d = {k} mod d.",
              "n, d = map(int, input().split())\nc = 0\nfor i in range(1, n + 1):\n"
              "    if i % d == {k} % d:\n        c += 1\nprint(c)\n"),
    "max": ("Given $n$ ($1 \\le n \\le 1000$) and $a_i$ ($-10^6 \\le a_i \\le 10^6$), print "
            "the largest sum of a contiguous run, times {k}.",
            "n = int(input())\na = list(map(int, input().split()))\nbest = a[0]\ncur = 0\n"
            "for x in a:\n    cur = max(x, cur + x)\n    best = max(best, cur)\n"
            "print(best * {k})\n"),
    "primes": ("Given $n$ ($1 \\le n \\le 10^5$), print how many primes are at most n + {k}.",
               "n = int(input()) + {k}\nsieve = [True] * (n + 1)\ncount = 0\n"
               "for i in range(2, n + 1):\n    if sieve[i]:\n        count += 1\n"
               "        for j in range(i * i, n + 1, i):\n            sieve[j] = False\n"
               "print(count)\n"),
    "pal": ("Given a word $s$ ($1 \\le |s| \\le 100$), print YES if it reads the same "
            "backwards after dropping its first {k} letters, else NO.",
            "s = input().strip()[{k}:]\nprint('YES' if s == s[::-1] else 'NO')\n"),
    "gcd": ("Given $a$ and $b$ ($1 \\le a, b \\le 10^9$), print gcd(a, b) + {k}.",
            "a, b = map(int, input().split())\nwhile b:\n    a, b = b, a % b\nprint(a + {k})\n"),
    "prefix": ("Given $n$ ($1 \\le n \\le 100$) numbers $a_i$ ($0 \\le a_i \\le 100$) and "
               "their count, print the prefix sums, each plus {k}.",
               "n = int(input())\na = list(map(int, input().split()))\ns = 0\nout = []\n"
               "for x in a:\n    s += x\n    out.append(s + {k})\nprint(*out)\n"),
    "median": ("Given $n$ ($1 \\le n \\le 999$, odd) values $a_i$ ($1 \\le a_i \\le 10^6$), "
               "print the median plus {k}.",
               "n = int(input())\na = sorted(map(int, input().split()))\n"
               "print(a[n // 2] + {k})\n"),
    "steps": ("Given $x$ ($1 \\le x \\le 10^6$), print the steps of the 3x+1 walk to 1, "
              "plus {k}.",
              "x = int(input())\nsteps = 0\nwhile x != 1:\n    if x % 2 == 0:\n"
              "        x //= 2\n    else:\n        x = 3 * x + 1\n    steps += 1\n"
              "print(steps + {k})\n"),
    "pairs": ("Given $n$ ($1 \\le n \\le 200$) and $a_i$ ($1 \\le a_i \\le 100$), count the "
              "pairs i < j with a_i + a_j = {k} + 100.",
              "n = int(input())\na = list(map(int, input().split()))\nc = 0\n"
              "for i in range(n):\n    for j in range(i + 1, n):\n"
              "        if a[i] + a[j] == {k} + 100:\n            c += 1\nprint(c)\n"),
}


def inputs(kind: str, rng: random.Random) -> list[str]:
    """Eight small inputs for a kind (weak on purpose: no large value)."""
    def listed(n: int, low: int, high: int) -> str:
        return f"{n}\n{' '.join(str(rng.randint(low, high)) for _ in range(n))}\n"
    made = {
        "sum": lambda: listed(rng.randint(1, 6), 1, 50),
        "count": lambda: f"{rng.randint(5, 60)} {rng.randint(1, 5)}\n",
        "max": lambda: listed(rng.randint(1, 8), -20, 20),
        "primes": lambda: f"{rng.randint(1, 300)}\n",
        "pal": lambda: "".join(rng.choice("ab") for _ in range(rng.randint(3, 9))) + "\n",
        "gcd": lambda: f"{rng.randint(1, 90)} {rng.randint(1, 90)}\n",
        "prefix": lambda: listed(rng.randint(1, 7), 0, 9),
        "median": lambda: listed(rng.choice((1, 3, 5, 7)), 1, 40),
        "steps": lambda: f"{rng.randint(1, 500)}\n",
        "pairs": lambda: listed(rng.randint(2, 12), 40, 100),
    }[kind]
    return [made() for _ in range(8)]


def dataset(root: Path, count: int) -> Path:
    rows = []
    rng = random.Random(46)
    for index in range(count):
        kind = sorted(KINDS)[index % len(KINDS)]
        statement, code = (t.replace("{k}", str(index // len(KINDS) + 1)) for t in KINDS[kind])
        tests = []
        for stdin in inputs(kind, rng):
            out = subprocess.run([sys.executable, "-c", code], input=stdin, text=True,
                                 capture_output=True, check=True).stdout  # fmt: skip
            tests.append((stdin, out))
        rows.append((statement, code, tests))
    write_rows(root, rows, time_limit=2.0)
    return root


def audit(root: Path, mutants: int, jobs: int) -> tuple[float, Any]:
    start = time.perf_counter()
    done = subprocess.run(
        [str(Path(sys.executable).parent / "auditdata"), str(root), "--mutants",
         str(mutants), "-j", str(jobs), "--json", "-q"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    return seconds, json.loads(done.stdout)


def baseline(root: Path, mutants: int, jobs: int) -> tuple[float, float, int, int]:
    """The same audit done the ad-hoc way on one row of each kind: each mutant run on
    each test as ``python3 prog.py`` by subprocess (no sandbox), ``jobs`` at a time, up
    to its first timeout (the row's limit): (seconds, CPU seconds, runs, rows)."""
    from problemtools_py.audit.mutants import mutants as make
    from problemtools_py.dataset.reader import Dataset, DatasetProblem

    data = Dataset(root)
    work = []
    heads = {text.split("{k}")[0]: kind for kind, (text, _code) in KINDS.items()}
    chosen: dict[str, object] = {}
    for problem in data.iter_problems("train"):
        kind = next((k for head, k in heads.items() if problem.statement.startswith(head)), "")
        chosen.setdefault(kind, problem)
    for problem in (p for kind, p in chosen.items() if kind):
        assert isinstance(problem, DatasetProblem)
        for mutant in make(data.reference(problem.problem_id) or "", mutants):
            work.append((mutant.code, problem.tests, problem.time_limit_s))
    runs = [0]

    def judge(item: tuple[str, tuple[tuple[str, str], ...], float]) -> None:
        code, tests, limit = item
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "prog.py"
            path.write_text(code)
            for stdin, _ in tests:
                runs[0] += 1
                try:
                    subprocess.run(["python3", str(path)], input=stdin, text=True,
                                   capture_output=True, timeout=limit, check=False,
                                   env={"PATH": os.environ["PATH"]})  # fmt: skip
                except subprocess.TimeoutExpired:
                    return

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(judge, work))
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, cpu, runs[0], len(chosen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=100)
    parser.add_argument("--mutants", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    parser.add_argument("--keep", type=Path, help="make (or reuse) the dataset here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp) / "ds"
        if not (root / "problems-train.parquet").is_file():
            dataset(root, args.problems)
        first_s, first = audit(root, args.mutants, args.jobs)
        programs = sum(len(row["programs"]) for row in first["problems"])
        print(f"{args.problems} problems, {programs} wrong programs, -j {args.jobs}")
        made = sum(row["runs"] for row in first["problems"])
        slow = sum(row["timeouts"] for row in first["problems"])
        print(f"auditdata, first run : {first_s:7.1f} s  (limit: 600 s): {made} test runs, "
              f"{slow} of them stopped at the time limit (2 s of CPU each)", flush=True)
        second_s, second = audit(root, args.mutants, args.jobs)
        print(f"auditdata, second run: {second_s:7.1f} s", flush=True)
        rates = [[row["score"] for row in doc["problems"]] for doc in (first, second)]
        print(f"kill rates the same both runs: {rates[0] == rates[1]}")
        scores = [s for s in rates[0] if s is not None]
        weak = sum(s < 1 for s in scores)
        print(f"mean kill rate {sum(scores) / len(scores):.1%}; {weak} of {len(scores)} "
              "problems with a survivor", flush=True)
        seconds, cpu, runs, sample = baseline(root, args.mutants, args.jobs)
    scale = args.problems / sample
    best = min(first_s, second_s)
    print(f"ad hoc (subprocess python3 per test, no sandbox, no random inputs), one row "
          f"of each of {sample} kinds: {seconds:.1f} s for {runs} runs -> "
          f"{seconds * scale:.1f} s for all (auditdata {seconds * scale / best:.2f}x faster)")
    print(f"ad hoc CPU time, scaled, over {args.jobs} cores: {cpu * scale / args.jobs:.1f} s")
    floor = max(slow * 2.0 / args.jobs, 1e-9)
    print(f"floor: the time limit spent by the {slow} runs that loop, over {args.jobs} cores: "
          f"{floor:.1f} s (auditdata {best / floor:.2f}x it)")


if __name__ == "__main__":
    main()
