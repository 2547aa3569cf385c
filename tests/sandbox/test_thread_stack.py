"""One stack for every thread of every program, whoever started the judge (issue 60).

A Python program forked from a warm interpreter used to give the threads it starts the
stack of the process that launched the judge: under a shell's default (soft 8 MiB) or
``unlimited`` (which glibc reads as 8 MiB) a completion that recurses in a thread crashed,
under ``ulimit -s 1048576`` it passed; ``--fresh-python`` (a new python3) passed always.
Each path is started here the way a user's shell would start it: the soft limit set, the
hard one left alone (a default shell's), and a hard limit too low to give the stack (the
judge then says so once and every thread has that stack alike)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.dataset_gen import write_rows
from helpers.packages import SAMPLES

BIN = Path(sys.executable).parent
# Recursion through a builtin (map) uses the C stack: 100,000 levels need ~30 MiB of it,
# more than 8 MiB and far less than the judge's 1 GiB.
DEEP = """import sys, threading
sys.setrecursionlimit(10**6)
def depth(n):
    return 0 if n == 0 else 1 + sum(map(depth, [n - 1]))
def main():
    name = input().strip()
    depth(100000)
    print(f"Hello {name}!")
thread = threading.Thread(target=main)
thread.start()
thread.join()
"""
LAUNCHERS = {"soft 8 MiB": "ulimit -S -s 8192", "unlimited": "ulimit -s unlimited"}


def _under(limit: str, argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """``argv`` started by a shell that first sets its stack limit with ``limit``."""
    script = f"{limit} && exec {shlex.join(argv)}"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                          timeout=600, check=False, **kwargs)  # type: ignore[call-overload]  # fmt: skip


def _reward_script(code: str, **kwargs: str) -> list[str]:
    truth = json.dumps({"inputs": ["Ada\n"], "outputs": ["Hello Ada!\n"]})
    call = (f"from problemtools_py import rewards; r = rewards.compute_score('codecontests', "
            f"{code!r}, {truth!r}, None, **{kwargs!r}); print(r['score'], r['status'])")  # fmt: skip
    return [sys.executable, "-c", call]


@pytest.mark.parametrize("launcher", sorted(LAUNCHERS))
def test_a_thread_has_the_judges_stack_in_compute_score(launcher: str) -> None:
    got = _under(LAUNCHERS[launcher], _reward_script(f"```python\n{DEEP}```"))
    assert got.stdout.split() == ["1.0", "ok"], got.stderr[-2000:]


@pytest.mark.parametrize("launcher", sorted(LAUNCHERS))
def test_a_thread_has_the_judges_stack_in_runsubmission(launcher: str, tmp_path: Path) -> None:
    program = tmp_path / "deep.py"
    program.write_text(DEEP)
    got = _under(LAUNCHERS[launcher], [str(BIN / "runsubmission"), str(SAMPLES / "hello"),
                                       str(program), "--json"])  # fmt: skip
    runs = json.loads(got.stdout)["runs"] if got.stdout else []
    assert runs and {run["verdict"] for run in runs} == {"AC"}, got.stderr[-2000:]


@pytest.mark.parametrize("fresh", [False, True], ids=["forked", "fresh-python"])
@pytest.mark.parametrize("launcher", sorted(LAUNCHERS))
def test_a_thread_has_the_judges_stack_in_gradecode(launcher: str, fresh: bool,
                                                    tmp_path: Path) -> None:  # fmt: skip
    (pid,) = write_rows(tmp_path / "ds", [("Greet the name.", "print('Hello', input() + '!')",
                                           [("Ada\n", "Hello Ada!\n")])])  # fmt: skip
    lines = tmp_path / "c.jsonl"
    lines.write_text(json.dumps({"problem_id": pid, "completion": f"```python\n{DEEP}```"}) + "\n")
    argv = [str(BIN / "gradecode"), str(tmp_path / "ds"), str(lines), "-q", "-o",
            str(tmp_path / "out.jsonl"), *(["--fresh-python"] if fresh else [])]  # fmt: skip
    got = _under(LAUNCHERS[launcher], argv)
    assert got.returncode == 0, got.stderr[-2000:]
    graded = json.loads((tmp_path / "out.jsonl").read_text())
    assert (graded["reward"], graded["status"]) == (1.0, "ok")


def test_a_hard_limit_too_low_is_said_and_is_every_threads() -> None:
    """Without CAP_SYS_RESOURCE (root here lacks it too) a hard limit of 8 MiB cannot be
    raised: the judge says so once, naming the size, and the thread and the main thread
    both have 8 MiB, as python3 has under that limit."""
    main_deep = DEEP.replace("thread = threading.Thread(target=main)\nthread.start()\n"
                             "thread.join()\n", "main()\n")  # fmt: skip
    in_thread = _under("ulimit -s 8192", _reward_script(f"```python\n{DEEP}```"))
    in_main = _under("ulimit -s 8192", _reward_script(f"```python\n{main_deep}```"))
    assert in_thread.stdout.split() == in_main.stdout.split() == ["0.0", "runtime_error"]
    said = [line for line in in_thread.stderr.splitlines() if "stack" in line]
    assert len(said) == 1 and "8 MiB, not 1024 MiB" in said[0], in_thread.stderr[-2000:]
