"""The dataset's costs on a generated dataset (default: 2,000 problems with ~200 KB of tests
each), and how they grow: the same figures at a quarter of the size, side by side.

For each size: writing the dataset, looking up one problem in a fresh process (wall time,
peak RSS) and warm (in this process), scanning all statements, and converting the whole
dataset each way (parquet2kattis, kattis2parquet) as separate processes with their peak
RSS. Peak RSS must not grow with the dataset's size.

Usage: python bench/dataset.py [--problems N] [--test-kb K]"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from problemtools_py.dataset import problem_id
from problemtools_py.dataset.schema import PROBLEMS, REFERENCES, REFERENCES_FILE, split_file
from problemtools_py.dataset.writer import RowWriter

BIN = Path(sys.executable).parent


def generate(root: Path, count: int, test_kb: int) -> list[str]:
    """Rows in id order; each row's tests are made as it is written (bounded memory)."""
    root.mkdir(parents=True)
    words = ["alpha", "beta", "gamma", "delta", "omega"]
    statements = []
    for index in range(count):
        rng = random.Random(index)
        text = f"Problem {index}: print the sum. " + " ".join(rng.choice(words) for _ in range(60))
        statements.append((problem_id(text), index, text))
    statements.sort()
    with RowWriter(root / split_file("train"), PROBLEMS) as writer:
        for pid, index, text in statements:
            rng = random.Random(-index)
            tests = []
            for _ in range(8):
                numbers = [rng.randint(0, 10**6) for _ in range(test_kb * 1024 // 8 // 8)]
                tests.append([" ".join(map(str, numbers)) + "\n", f"{sum(numbers)}\n"])
            writer.add(
                {
                    "problem_id": pid,
                    "statement": text,
                    "tests_json": json.dumps(tests),
                    "time_limit_s": 1.0,
                    "origin_json": "{}",
                }
            )
    with RowWriter(root / REFERENCES_FILE, REFERENCES) as writer:
        for pid, _, _ in statements:
            writer.add({"problem_id": pid, "code": "print(sum(map(int, input().split())))\n"})
    return [pid for pid, _, _ in statements]


def child(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one child process. GNU time measures it: a child
    forked from this (large) process would be charged for this process's pages until it
    execs."""
    with tempfile.NamedTemporaryFile("r") as out:
        start = time.perf_counter()
        subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", out.name, *cmd],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - start
        return wall, int(out.read().split()[-1]) / 1024


def measure(count: int, test_kb: int) -> dict[str, str]:
    base = Path(tempfile.mkdtemp(prefix="ptpy-dsbench-"))
    try:
        start = time.perf_counter()
        ids = generate(base / "ds", count, test_kb)
        figures = {"write dataset": f"{time.perf_counter() - start:.2f} s"}
        size = (base / "ds" / split_file("train")).stat().st_size / 2**20
        figures["train file"] = f"{size:.0f} MiB"
        target = ids[len(ids) // 2]
        code = (
            "import sys; from problemtools_py.dataset import Dataset; "
            f"assert Dataset(sys.argv[1]).problem('train', '{target}')"
        )
        wall, rss = child([sys.executable, "-c", code, str(base / "ds")])
        figures["lookup, fresh process"] = f"{wall:.3f} s, {rss:.0f} MiB"
        ids_file = base / "ids.txt"
        ids_file.write_text("\n".join(ids[:: max(1, len(ids) // 50)]))
        warm = (
            "import sys, time; from problemtools_py.dataset import Dataset; "
            "d = Dataset(sys.argv[1]); ids = open(sys.argv[2]).read().split(); "
            "d.problem('train', ids[0]); t = time.perf_counter(); "
            "[d.problem('train', i) for i in ids]; "
            "open(sys.argv[3], 'w').write(str((time.perf_counter() - t) / len(ids)))"
        )
        result = base / "warm.txt"
        _, rss = child([sys.executable, "-c", warm, str(base / "ds"), str(ids_file), str(result)])
        figures["lookup, warm"] = f"{float(result.read_text()) * 1000:.1f} ms, {rss:.0f} MiB"
        scan = (
            "import sys; from problemtools_py.dataset import Dataset; "
            "print(sum(1 for _ in Dataset(sys.argv[1]).statements('train')))"
        )
        wall, rss = child([sys.executable, "-c", scan, str(base / "ds")])
        figures["scan all statements"] = f"{wall:.2f} s, {rss:.0f} MiB"
        wall, rss = child(
            [str(BIN / "parquet2kattis"), "-q", "-j", "2", str(base / "ds"), str(base / "pk")]
        )
        figures["parquet2kattis"] = f"{wall:.1f} s, {rss:.0f} MiB"
        packages = sorted(str(p) for p in (base / "pk").iterdir())
        wall, rss = child(
            [str(BIN / "kattis2parquet"), "-q", "-j", "2", *packages, "-o", str(base / "back")]
        )
        figures["kattis2parquet"] = f"{wall:.1f} s, {rss:.0f} MiB"
        same = (base / "ds" / split_file("train")).read_bytes() == (
            base / "back" / split_file("train")
        ).read_bytes()
        figures["round trip byte-identical"] = str(same)
        return figures
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=2000)
    parser.add_argument("--test-kb", type=int, default=200)
    args = parser.parse_args()
    sizes = [max(1, args.problems // 4), args.problems]
    results = [measure(n, args.test_kb) for n in sizes]
    print(f"{'':28}" + "".join(f"{f'{n} problems':>24}" for n in sizes))
    for key in results[0]:
        print(f"{key:28}" + "".join(f"{r[key]:>24}" for r in results))


if __name__ == "__main__":
    main()
