"""What the grading benches share: ``gradecode`` timed on a batch of completions, a
baseline timed over a pool of threads, and the baseline's verdict on one program's tests
(the dataset's rule: exit 0 and the expected output)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from problemtools_py.judge.dataset_rule import first_difference

BIN = Path(sys.executable).parent
T = TypeVar("T")
Item = tuple[str, str, list[tuple[str, str]]]  # (problem id, program, tests)


def write_completions(path: Path, items: Sequence[Item], fence: str) -> Path:
    """The items as a JSONL file of completions, each program in a ``fence`` block."""
    path.write_text("".join(json.dumps({"problem_id": p, "completion": f"```{fence}\n{c}```"})
                            + "\n" for p, c, _ in items))  # fmt: skip
    return path


def gradecode(dataset: Path, lines: Path, jobs: int, *options: str,
              cache: Path | None = None) -> tuple[float, list[dict[str, Any]]]:  # fmt: skip
    """Wall time of one ``gradecode`` process on ``lines``, and its result rows."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)} if cache is not None else None
    start = time.perf_counter()
    done = subprocess.run([str(BIN / "gradecode"), str(dataset), str(lines), "-j", str(jobs),
                           *options], capture_output=True, text=True, check=True,
                          env=env)  # fmt: skip
    seconds = time.perf_counter() - start
    return seconds, [json.loads(line) for line in done.stdout.splitlines()]


def timed_map(
    func: Callable[[T], float], items: Sequence[T], jobs: int
) -> tuple[float, list[float]]:
    """Wall time of ``func`` on every item, ``jobs`` threads at a time, and its results."""
    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(func, items))
    return time.perf_counter() - start, results


def passes(command: list[str], cases: Sequence[tuple[str, str]]) -> float:
    """1.0 when ``command`` exits 0 with the expected output on every case, else 0.0."""
    for stdin, expected in cases:
        run = subprocess.run(command, input=stdin.encode(), capture_output=True, timeout=30,
                             check=False)  # fmt: skip
        if run.returncode != 0 or first_difference(run.stdout.decode(), expected) is not None:
            return 0.0
    return 1.0
