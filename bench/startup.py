"""Start-up of every command in a fresh process, side by side with the floor: the
interpreter alone, and the interpreter importing what a static check cannot do without
(PyYAML, to read problem.yaml). Median wall time of N runs each.

Usage: python bench/startup.py [--repeat N]"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HELLO = str(REPO / "sample_problems" / "hello")


def seconds(argv: list[str], repeat: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        python = str(BIN / "python")
        floor = seconds([python, "-c", "pass"], args.repeat, env)
        floor_yaml = seconds([python, "-c", "import yaml"], args.repeat, env)
        cold = seconds([str(BIN / "verifyproblem"), "-p", "config", HELLO], 1, env)
        rows = [("verifyproblem -p config hello (cold cache)", cold)]
        runs = {
            "verifyproblem -p config hello": [str(BIN / "verifyproblem"), "-p", "config", HELLO],
            "verifyproblem-hook (no files)": [str(BIN / "verifyproblem-hook")],
        }
        for name, argv in runs.items():
            rows.append((name, seconds(argv, args.repeat, env)))
        for command in (
            "verifyproblem",
            "verifyproblem-hook",
            "generatedata",
            "gradecode",
            "kattis2parquet",
            "parquet2kattis",
            "problem2html",
            "problem2pdf",
        ):
            rows.append(
                (f"{command} --help", seconds([str(BIN / command), "--help"], args.repeat, env))
            )
    print(
        f"floor: python -c pass {floor * 1000:.0f} ms; python -c 'import yaml' "
        f"{floor_yaml * 1000:.0f} ms (median of {args.repeat})"
    )
    print(f"{'command':48} {'ms':>6} {'x floor':>8}  target")
    for name, value in rows:
        mark = "" if "cold" in name else ("ok" if value < 0.1 else "over 100 ms")
        print(f"{name:48} {value * 1000:6.0f} {value / floor:8.1f}  {mark}")


if __name__ == "__main__":
    main()
