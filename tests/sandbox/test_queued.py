"""How long a program waited, runnable, for a CPU (sandbox.counters.queued_seconds): what
tells a starved run (run again, never the program's verdict) from one that slept (an
honest timeout). The scheduler's statistics count a wait only when it ends, so a program
that never got the CPU back before the wall clock stopped it looked as if it had slept
(CI, 2026-12-05: a starved run judged `timeout`); the wait still going on is added."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from problemtools_py.sandbox.counters import pending_wait, queued_seconds

SPIN = "while True:\n    pass"


@contextmanager
def _on_one_core() -> Iterator[int]:
    core = min(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {core})  # (this thread reads the clock of the program's core)
    try:
        yield core
    finally:
        os.sched_setaffinity(0, before)


def _start(code: str, core: int, nice: int = 0) -> subprocess.Popen[bytes]:
    argv = ["taskset", "-c", str(core), "nice", "-n", str(nice), sys.executable, "-c", code]
    return subprocess.Popen(argv)


def _on_cpu(pid: int) -> float:
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9


def test_a_starved_program_has_waited_nearly_all_its_life() -> None:
    """Beside two spinners of a higher weight on its core it runs a few ms a second: every
    reading says it waited for nearly all the rest (without the wait going on, readings
    fell short by up to a second, the time since it last ran)."""
    with _on_one_core() as core:
        hogs = [_start(SPIN, core) for _ in range(2)]
        started = time.monotonic()
        starved = _start(SPIN, core, nice=19)
        try:
            time.sleep(1.0)
            short = []
            for _ in range(8):
                found, age = queued_seconds(starved.pid), time.monotonic() - started
                assert found is not None
                idle = age - _on_cpu(starved.pid) - 0.15  # (its exec through taskset and nice)
                if found < 0.85 * idle:
                    short.append((round(found, 3), round(idle, 3)))
                time.sleep(0.15)
        finally:
            for each in (*hogs, starved):
                each.kill()
                each.wait()
    assert short == []


def test_a_sleeping_program_has_not_waited() -> None:
    with _on_one_core() as core:
        sleeper = _start("import time\ntime.sleep(30)", core)
        try:
            time.sleep(1.0)
            assert pending_wait(sleeper.pid) == 0.0
            found = queued_seconds(sleeper.pid)
        finally:
            sleeper.kill()
            sleeper.wait()
    assert found is not None and found < 0.2


def test_a_gone_program_has_no_wait_going_on() -> None:
    done = subprocess.run([sys.executable, "-c", "pass"], check=True)
    assert done.returncode == 0
    assert pending_wait(2**22 + 12345) == 0.0  # (no such process)
