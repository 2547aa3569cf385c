"""parquet2kattis --ids on a generated dataset (default 2,000 problems, ~200 KB of tests
each), beside the naive way (read the whole table, then pick the row) and the floor
(import pyarrow and decompress the one row group that holds the row). Fresh processes,
the three alternating in each round; median wall time and peak RSS of --rounds (7) each.

Usage: python bench/ids.py [--problems N] [--test-kb K] [--rounds R]"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dataset import child, generate  # (the generator of bench/dataset.py)

from problemtools_py.dataset.schema import split_file

BIN = Path(sys.executable).parent
NAIVE = (
    "import sys, pyarrow.parquet as pq, pyarrow.compute as pc\n"
    "t = pq.read_table(sys.argv[1])\n"
    "row = t.filter(pc.equal(t['problem_id'], sys.argv[2]))\n"
    "assert row.num_rows == 1\n"
)
FLOOR = (  # (pyarrow without numpy, as the commands import it: see dataset/arrow.py)
    "import sys\nsys.modules['numpy'] = None\nimport pyarrow.parquet as pq\n"
    "f = pq.ParquetFile(sys.argv[1])\n"
    "f.read_row_group(int(sys.argv[2]))\n"
)


def group_of(path: Path, pid: str) -> int:
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    column = meta.schema.names.index("problem_id")
    for index in range(meta.num_row_groups):
        stats = meta.row_group(index).column(column).statistics
        if stats is not None and stats.min <= pid <= stats.max:
            return index
    raise SystemExit(f"no row group holds {pid}")


def medians(cmds: list[list[str]], rounds: int) -> list[tuple[float, float]]:
    """Each command's median wall time and peak RSS over ``rounds`` rounds, the commands
    alternating within each (the machine's speed drifts). ``{run}`` in an argument is the
    round's number (a fresh output directory each)."""
    found: list[list[tuple[float, float]]] = [[] for _ in cmds]
    for run in range(rounds):
        for index, cmd in enumerate(cmds):
            found[index].append(child([a.replace("{run}", str(run)) for a in cmd]))
    return [
        (statistics.median(w for w, _ in runs), statistics.median(r for _, r in runs))
        for runs in found
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=2000)
    parser.add_argument("--test-kb", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="ptpy-idsbench-"))
    try:
        ids = generate(base / "ds", args.problems, args.test_kb)
        target = ids[len(ids) // 2]
        table = base / "ds" / split_file("train")
        ours, naive, floor = medians(
            [
                [str(BIN / "parquet2kattis"), str(base / "ds"), str(base / "out{run}"), "--ids",
                 target, "-q"],
                [sys.executable, "-c", NAIVE, str(table), target],
                [sys.executable, "-c", FLOOR, str(table), str(group_of(table, target))],
            ],
            args.rounds,
        )  # fmt: skip
    finally:
        shutil.rmtree(base, ignore_errors=True)
    size = f"{args.problems} problems, ~{args.test_kb} KB of tests each"
    print(f"one problem out of {size} (median of {args.rounds} fresh processes each, "
          "alternating)")  # fmt: skip
    print(f"{'':34} {'wall':>8} {'peak RSS':>10}")
    for name, (wall, rss) in (("parquet2kattis --ids (ours)", ours), ("naive: read_table + filter",
                              naive), ("floor: pyarrow + one row group", floor)):  # fmt: skip
        print(f"{name:34} {wall:7.2f}s {rss:8.0f} MB")
    print(f"ours vs naive: {naive[0] / ours[0]:.1f}x faster, {naive[1] / ours[1]:.1f}x leaner")
    time_ratio, memory_ratio = ours[0] / floor[0], ours[1] / floor[1]
    print(f"ours vs floor: {time_ratio:.2f}x the time, {memory_ratio:.2f}x the memory")


if __name__ == "__main__":
    main()
