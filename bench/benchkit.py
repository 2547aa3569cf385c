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


# The work itself (issue 61's floor that counts the CPU): in a warm ``python3 -S``, each
# program compiled once, then per test a fork that runs it on a pipe and exits (its exit
# status and output compared as the dataset's rule does, stopping at the first failure);
# the CPU of the forked programs alone (the runs themselves, as the issue counts them:
# the forking, feeding and reading around them is a grader's, ours or any other's).
_FLOOR = r"""
import json, os, resource, sys
buffer = bytearray(1 << 16)  # (output read into one buffer: no allocation per test)
def cpu():
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime
start, tests = cpu(), 0
for line in open(sys.argv[1]):  # (one program's tests held at a time: a fork copies less)
    code, cases = json.loads(line)
    compiled = compile(code, "main.py", "exec")
    for stdin, expected in cases:
        tests += 1
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(in_w); os.close(out_r)
            os.dup2(in_r, 0); os.dup2(out_w, 1)
            sys.stdin = open(0, closefd=False)
            sys.stdout = open(1, "w", closefd=False)
            status = 0
            try:
                exec(compiled, {"__name__": "__main__"})
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else (exc.code is not None)
            except BaseException:
                status = 1
            sys.stdout.flush()
            os._exit(status)
        os.close(in_r); os.close(out_w)
        data = stdin.encode()
        try:  # (a program that exits unread closes the pipe first)
            while data:
                data = data[os.write(in_w, data):]
        except BrokenPipeError:
            pass
        os.close(in_w)
        got = 0
        while n := os.readv(out_r, [memoryview(buffer)[got:]]):
            got += n
            if got == len(buffer):
                buffer.extend(bytes(len(buffer)))
        os.close(out_r)
        _, status = os.waitpid(pid, 0)
        out, want = memoryview(buffer)[:got], expected.encode()
        right = status == 0 and (out == want or bytes(out).split() == want.split())
        out.release()
        if not right:
            break
print(cpu() - start, tests)
"""


Programs = Sequence[tuple[str, Sequence[tuple[str, str]]]]  # (program, its tests) each


def fork_floor(items: Programs, work: Path) -> tuple[float, int]:
    """(CPU seconds, tests run) of ``items`` (program, tests) run the bare way, forked from
    a warm interpreter: the programs' own CPU, which no grader avoids (see _FLOOR)."""
    listed = work / "floor-items.jsonl"
    listed.write_text("".join(json.dumps([code, list(cases)]) + "\n" for code, cases in items))
    done = subprocess.run(["/usr/bin/python3", "-S", "-c", _FLOOR, str(listed)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    seconds, tests = done.stdout.split()
    return float(seconds), int(tests)
