"""gradecode on one machine and on a Ray cluster of N nodes started on this machine
(``ray start --head`` and ``ray start --address``, one CPU each, as the tests start
them; one worker in a mount namespace that hides the dataset, so its tests go through
Ray's object store): completions a second, side by side, same completions, same
rewards. On a machine of C cores, N nodes of one CPU share those C cores: the figure is
what the cluster path costs against a local run (with more nodes than cores it cannot
be faster), not the speed of N machines.

Usage: python bench/cluster.py [--nodes N] [--completions N] [--spin SECONDS]"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.dataset_gen import write_rows
from tests.grading.raynodes import RayNodes

SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {s}:\n    pass\n"


def completions(path: Path, ids: list[str], count: int, spin: float) -> None:
    lines = []
    for n in range(count):
        k = n % len(ids)
        code = SPIN.format(s=spin) + f"print(int(input()) + {k})\n"
        lines.append({"problem_id": ids[k], "completion": f"```python\n{code}```"})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def grade(argv: list[str], env: dict[str, str]) -> tuple[float, list[float]]:
    out = Path(argv[argv.index("-o") + 1])
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "problemtools_py.cli.gradecode", *argv, "-q"],
                   env=env, check=True, capture_output=True)  # fmt: skip
    seconds = time.perf_counter() - start
    return seconds, [json.loads(line)["reward"] for line in out.read_text().splitlines()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--completions", type=int, default=300)
    parser.add_argument("--spin", type=float, default=0.02, help="CPU seconds per test run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rows = [(f"Print the number plus {k} ($1 \\le n \\le 100$).",
                 f"print(int(input()) + {k})\n", [(f"{n}\n", f"{n + k}\n") for n in range(5)])
                for k in range(20)]  # fmt: skip
        hidden = root / "driver-only"
        ids = write_rows(hidden / "ds", rows)
        source = root / "in.jsonl"
        completions(source, ids, args.completions, args.spin)
        nodes = RayNodes()
        try:
            nodes.start_head(1)
            for index in range(1, args.nodes):
                nodes.add_worker(f"node_w{index}", 1, hidden=[hidden] if index == 1 else None)
            nodes.wait_nodes(args.nodes)
            ds = str(hidden / "ds")
            local_s, local = grade([ds, str(source), "-o", str(root / "local.jsonl")], nodes.env)
            ray_s, remote = grade([ds, str(source), "-o", str(root / "ray.jsonl"), "--ray",
                                   nodes.address], nodes.env)  # fmt: skip
        finally:
            nodes.stop()
    runs = args.completions * 5
    print(f"{args.completions} completions x 5 tests, {args.spin} s of CPU per test run")
    print(f"one machine (-j all cores): {local_s:6.1f} s, {args.completions / local_s:6.1f} "
          f"completions/s")
    print(f"{args.nodes} Ray nodes of 1 CPU  : {ray_s:6.1f} s, {args.completions / ray_s:6.1f} "
          f"completions/s ({local_s / ray_s:.2f}x one machine; start of the actors included)")
    print(f"floor (the runs' CPU alone over this machine's cores): "
          f"{runs * args.spin / min(args.nodes, _cores()):.1f} s")
    print(f"same rewards: {local == remote}")


def _cores() -> int:
    from problemtools_py.cpus import usable_cores

    return usable_cores()


if __name__ == "__main__":
    main()
