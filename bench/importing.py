"""importdataset against the card's own figure: its build took 32 cores x 70 min for
21,294 DeepCoder rows, 6.3 core-seconds a row. Rows are made in each source's published
layout and shape (statement size, solutions, test count and sizes as the sources have
them: TACO's many small tests and Python 2 solutions, PrimeIntellect's one gold solution,
open-r1's official tests plus generated ones up to a megabyte); each is imported with
every core, and the machine's busy CPU time (all of /proc/stat's non-idle time: the
importer, the sandbox and the references) is divided by the rows. Beside it the floor:
the references the import runs (up to its first passing one, on the capped tests), forked
bare from a warm interpreter, their own CPU; and the importer's own peak memory.

Usage: python bench/importing.py [--rows N] [--jobs J]   (run it on a quiet machine)"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchkit import BIN, fork_floor

from problemtools_py.cpus import usable_cores

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from helpers.upstream_rows import (
    codeforces_row,
    submission_row,
    taco_row,
    words,
    write_parquet,
)

CARD_CORE_SECONDS = 32 * 70 * 60 / 21_294  # 6.3
# A reference of the usual kind: reads n numbers and prints a sum and a maximum, O(n).
REFERENCE = ("import sys\ndata = sys.stdin.buffer.read().split()\nn = int(data[0])\n"
             "values = list(map(int, data[1:n + 1]))\n"
             "print(sum(values), max(values))\n")  # fmt: skip
PY2 = "n = int(raw_input())\nprint sum(map(int, raw_input().split()))\n"


def test_of(pick: random.Random, size: int) -> tuple[str, str]:
    values = [pick.randint(-10**9, 10**9) for _ in range(size)]
    return (f"{size}\n{' '.join(map(str, values))}\n", f"{sum(values)} {max(values)}\n")


def statement(seed: str) -> str:
    return (f"{words(seed, 250)}.\n\n-----Input-----\n\nThe first line holds n, the second n "
            "integers.\n\n-----Output-----\n\nPrint their sum and their maximum.\n")  # fmt: skip


def taco_rows(count: int, pick: random.Random) -> list[dict[str, Any]]:
    """TACO: 2 KB statements, a dozen solutions (a third Python 2), ~50 small tests."""
    rows = []
    for i in range(count):
        tests = [test_of(pick, pick.randint(1, 30)) for _ in range(50)]
        solutions = [PY2] * 4 + [REFERENCE + f"# {k}\n" for k in range(8)]
        rows.append(taco_row(statement(f"taco{i}"), solutions, tests))
    return rows


def primeintellect_rows(count: int, pick: random.Random) -> list[dict[str, Any]]:
    """PrimeIntellect: one gold solution, ~15 tests of up to 1,000 numbers."""
    rows = []
    for i in range(count):
        tests = [test_of(pick, pick.randint(1, 1000)) for _ in range(15)]
        info = {"language": "python", "test_cases": [
            {"type": "stdin_stdout", "input": a, "output": b} for a, b in tests]}  # fmt: skip
        rows.append({"prompt": "Solve the following coding problem using the programming "
                     f"language python:\n\n{statement(f'pi{i}')}", "problem_id": f"vfc_{i}",
                     "gold_standard_solution": f"```python\n{REFERENCE}```",
                     "verification_info": json.dumps(info), "metadata": "{}",
                     "source": "codeforces", "task_type": "verifiable_code",
                     "in_source_id": str(i)})  # fmt: skip
    return rows


def codeforces_files(count: int, pick: random.Random, root: Path) -> list[str]:
    """open-r1: 20 official tests, 40 generated ones per problem (up to 100,000 numbers,
    ~1 MB), two Python 3 references each; the command-line arguments for them."""
    rows, subs, generated = [], [], []
    for i in range(count):
        pid = f"{1000 + i}/A"
        official = [test_of(pick, pick.randint(1, 50)) for _ in range(20)]
        rows.append(codeforces_row(pid, f"cf{i}", official, description=statement(f"cf{i}")))
        subs += [submission_row(pid, REFERENCE), submission_row(pid, REFERENCE + "# 2\n")]
        for k in range(40):
            stdin, stdout = test_of(pick, pick.choice((10, 1000, 100_000)))
            generated.append({"problem_id": pid, "test_case_i": k, "input": stdin,
                              "output": stdout})  # fmt: skip
    (root / "generated").mkdir()
    for i in range(count):
        mine = [g for g in generated if g["problem_id"] == f"{1000 + i}/A"]
        write_parquet(root / "generated" / f"test_cases_{1000 + i}.parquet", mine)
    write_parquet(root / "codeforces.parquet", rows)
    write_parquet(root / "accepted.parquet", subs)
    return [str(root / "codeforces.parquet"), "--submissions", str(root / "accepted.parquet"),
            "--generated-tests", str(root / "generated")]  # fmt: skip


def busy_seconds() -> float:
    """The machine's non-idle CPU time so far (every core), from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def imported(
    argv: list[str], out: Path, jobs: int
) -> tuple[float, float, float, int, dict[str, Any]]:
    """(wall, busy core-seconds, the importer's own CPU seconds, its own peak RSS in KiB,
    build_report) of one import. The peak is the process's VmHWM and the CPU its own
    utime + stime (its threads: reading, screening, the client of the sandbox), both read
    while it runs (wait4's figures would count the sandbox's processes too)."""
    command = [str(BIN / "importdataset"), *argv, "-o", str(out), "-j", str(jobs), "-q"]
    busy, start = busy_seconds(), time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.PIPE)
    peak, own = 0, 0.0
    while process.poll() is None:
        peak = max(peak, _high_water(process.pid))
        own = max(own, _own_cpu(process.pid))
        time.sleep(0.02)
    wall, busy = time.perf_counter() - start, busy_seconds() - busy
    if process.returncode != 0:
        raise SystemExit(process.stderr.read().decode() if process.stderr else "failed")
    report = json.loads((out / "build_report.json").read_text())
    return wall, busy, own, peak, report


def _own_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _high_water(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def floor_items(rows: list[dict[str, Any]], kind: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The references the import runs, on the capped tests: the first passing one."""
    items = []
    for row in rows:
        if kind == "taco":
            io = json.loads(row["input_output"])
            tests = list(zip(io["inputs"], io["outputs"], strict=True))[:32]
        else:
            info = json.loads(row["verification_info"])
            tests = [(t["input"], t["output"]) for t in info["test_cases"]][:32]
        items.append((REFERENCE, tests))
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=40, help="rows of each source")
    parser.add_argument("--jobs", type=int, default=usable_cores())
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ptpy-importbench-"))
    pick = random.Random(7)
    print(f"{args.jobs} cores; the card: {CARD_CORE_SECONDS:.1f} core-seconds a row")
    print(f"{'source':>15} {'rows':>5} {'kept':>5} {'wall s':>7} {'core-s/row':>11} "
          f"{'vs card':>8} {'importer core-s/row':>20} {'floor core-s/row':>17} "
          f"{'peak MiB':>9}")  # fmt: skip
    sources: list[tuple[str, Callable[[Path], list[str]], list[Any] | None]] = []
    taco = taco_rows(args.rows, pick)
    pi = primeintellect_rows(args.rows, pick)
    sources.append(("taco", lambda d: [str(write_parquet(d / "taco.parquet", taco))], taco))
    sources.append(("primeintellect",
                    lambda d: [str(write_parquet(d / "pi.parquet", pi))], pi))  # fmt: skip
    sources.append(("codeforces", lambda d: codeforces_files(args.rows, pick, d), None))
    for name, files, rows in sources:
        folder = work / name
        folder.mkdir()
        wall, busy, own, peak, report = imported([name, *files(folder), "--min-tests", "1"],
                                            folder / "out", args.jobs)  # fmt: skip
        kept = report["build"][-1]["count"]
        floor = ""
        if rows is not None:
            cpu, _ = fork_floor(floor_items(rows, name), folder)
            floor = f"{cpu / len(rows):17.3f}"
        per_row = busy / args.rows
        print(f"{name:>15} {args.rows:>5} {kept:>5} {wall:7.1f} {per_row:11.3f} "
              f"{CARD_CORE_SECONDS / per_row:7.0f}x {own / args.rows:20.3f} {floor:>17} "
              f"{peak / 1024:9.0f}")  # fmt: skip
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
