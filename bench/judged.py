"""Grading by a problem's own judge against the dataset's comparator, on the same programs
and tests (issue 44): one problem built twice by kattis2parquet --keep-judges, once plain
(judged by the comparator) and once with a custom output validator (a Python program
that recomputes the answer), graded side by side over a few alternating rounds.

Three rows: the comparator (the floor: the programs' runs alone); the custom checker on
programs that all write the same outputs (most correct completions do), whose verdicts
the judge remembers after the first; and on programs whose every output is new (trailing
spaces of their own), where the validator runs once per test.

Usage: python bench/judged.py [--completions N] [--tests N] [--jobs N] [--rounds N]"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from problemtools_py.cli.kattis2parquet import main as kattis2parquet
from problemtools_py.cpus import usable_cores
from problemtools_py.grading import Grader
from problemtools_py.grading.problems import _id_of

CHECKER = '''import sys
a, b = map(int, open(sys.argv[1]).read().split())
out = sys.stdin.read().split()
sys.exit(42 if out == [str(a + b)] else 43)
'''
SOLUTION = "a, b = map(int, input().split())\nprint(a + b)\n"


def package(root: Path, judged: bool, tests: int) -> Path:
    kind = "checked by its own validator" if judged else "compared with the answer"
    (root / "problem_statement").mkdir(parents=True)
    (root / "problem_statement" / "problem.en.tex").write_text(
        f"\\problemname{{Sum}}\nPrint the sum of two numbers ({kind}).\n")  # fmt: skip
    yaml = "name: Sum\nlicense: cc0\nauthor: problemtools_py bench\n"
    yaml += "validation: custom\n" if judged else ""
    (root / "problem.yaml").write_text(yaml)
    for i in range(tests):
        data = root / "data" / "secret"
        data.mkdir(parents=True, exist_ok=True)
        (data / f"{i:03}.in").write_text(f"{i} {i + 1}\n")
        (data / f"{i:03}.ans").write_text(f"{2 * i + 1}\n")
    (root / "submissions" / "accepted").mkdir(parents=True)
    (root / "submissions" / "accepted" / "sum.py").write_text(SOLUTION)
    if judged:
        (root / "output_validators" / "check").mkdir(parents=True)
        (root / "output_validators" / "check" / "check.py").write_text(CHECKER)
    return root


def rate(grader: Grader, pid: str, completions: list[str], tests: int) -> float:
    start = time.perf_counter()
    rewards = [r.reward for r in grader.grade_many([(pid, c) for c in completions])]
    assert rewards == [1.0] * len(completions), rewards
    return len(completions) * tests / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--completions", type=int, default=40)
    parser.add_argument("--tests", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ptpy-judgedbench-"))
    plain = package(work / "plain", False, args.tests)
    checked = package(work / "checked", True, args.tests)
    assert kattis2parquet([str(plain), str(checked), "-o", str(work / "ds"), "-q",
                           "--keep-judges"]) == 0  # fmt: skip
    ids = {"comparator": _id_of(plain), "custom checker": _id_of(checked),
           "every output new": _id_of(checked)}  # fmt: skip
    # distinct programs (a comment apart), as rollouts are: each built and run anew (a
    # program seen before is answered from memory); their outputs are the same, so a
    # validator's verdict on an output, once made, is remembered (as in training)
    def fresh(tag: str, new_outputs: bool = False) -> list[str]:
        code = SOLUTION if not new_outputs else SOLUTION.replace(
            "print(a + b)", "print(a + b, end={i} * ' ' + '\\n')")  # fmt: skip
        return [f"```python\n# {tag} {i}\n{code.replace('{i}', str(i))}```"
                for i in range(args.completions)]  # fmt: skip


    print(f"{args.completions} completions x {args.tests} tests, {args.jobs} workers, "
          f"{args.rounds} alternating rounds (median, range)")  # fmt: skip
    print(f"{'judge':16} {'tests/s':>22} {'vs comparator':>14}")
    with Grader(work / "ds", jobs=args.jobs) as grader:
        for pid in ids.values():
            rate(grader, pid, fresh("warm")[:2], args.tests)  # (the judge opened, built)
        found: dict[str, list[float]] = {name: [] for name in ids}
        for round_ in range(args.rounds):
            for name, pid in ids.items():
                programs = fresh(f"{round_} {name}", name == "every output new")
                found[name].append(rate(grader, pid, programs, args.tests))
    base = statistics.median(found["comparator"])
    for name, rates in found.items():
        mine = statistics.median(rates)
        print(f"{name:16} {mine:8.1f} ({min(rates):6.1f}-{max(rates):6.1f}) {base / mine:13.2f}x")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
