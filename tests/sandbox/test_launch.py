"""sandbox/launch.py: the servers' interpreter, and the server a command starts early,
before its own imports, which the first pool takes."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest
from helpers.packages import run_python

from problemtools_py.sandbox import cores, launch, spawned
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.processes import exited_in_time
from problemtools_py.sandbox.results import Limits, SandboxError


def test_the_server_interpreter_is_probed_once_per_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """python3's version is asked by starting it once; later processes read the answer,
    kept by the file's identity. (Another file than this interpreter, which is never
    probed: a script starting it.)"""
    python = tmp_path / "bin" / "python3"
    python.parent.mkdir()
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert launch._is_recent(str(python)) is True
    assert list((tmp_path / "problemtools_py" / "sandbox").glob("python3-*"))

    def no_probe(*args: object, **kwargs: object) -> None:
        raise AssertionError("probed again")

    monkeypatch.setattr(launch.subprocess, "run", no_probe)
    assert launch._is_recent(str(python)) is True
    assert launch._is_recent(sys.executable) is True  # (this one: never probed)


@pytest.fixture
def early(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, launch.Started]]:
    """A process's early-server state of its own (start_early acts once per process)."""
    fresh: list[tuple[bool, launch.Started]] = []
    monkeypatch.setattr(launch, "_early", fresh)
    monkeypatch.setattr(launch, "_early_asked", [])
    monkeypatch.setattr(launch, "_left", [])
    monkeypatch.setattr(launch.atexit, "register", lambda *a, **k: None)
    return fresh


def test_the_server_starts_at_once_and_the_first_pool_takes_it(
        early: list[tuple[bool, launch.Started]]) -> None:
    launch.start_early()
    launch.start_early()  # (once per process)
    assert len(early) == 1
    _, (proc, _) = early[0]
    assert proc.poll() is None  # (started already: the pool reads its hello)
    with SandboxPool(2) as pool, pool.sandbox() as box:
        assert pool._spawner is not None and pool._spawner.proc is proc
        assert box.run(["true"], limits=Limits()).ok
    assert early == [] and proc.poll() is not None


def test_the_early_server_prepares_to_spawn_and_runs_nothing_itself(
        early: list[tuple[bool, launch.Started]]) -> None:
    """It becomes a spawner as soon as it has said hello (its preloading overlaps the
    judge's imports): a run asked of it directly is refused, a spawn is made."""
    launch.start_early()
    started = launch.take_early(True)
    assert started is not None
    with Sandbox(True, started=started) as spawner:
        with pytest.raises(SandboxError, match="runs nothing itself"):
            spawner.run(["true"], limits=Limits())
        with Sandbox(True, spawner=spawner) as box:
            assert box.run(["true"], limits=Limits()).ok


def test_a_pool_of_another_isolation_leaves_it(
        early: list[tuple[bool, launch.Started]]) -> None:
    launch.start_early()
    _, (proc, _) = early[0]
    with SandboxPool(2, isolate=False) as pool, pool.sandbox() as box:
        assert box.run(["true"], limits=Limits()).ok and pool._spawner is not None
        assert pool._spawner.proc is not proc
    assert len(early) == 1
    launch.close_early()
    assert early == [] and launch._left == [proc]
    assert exited_in_time(proc, 5.0)  # (its line closed, it ends by itself)
    assert proc.wait() == 0


def test_a_server_whose_judge_left_before_its_hello_ends_quietly() -> None:
    """The judge exits while its early server still starts: the server finds it gone
    when it says hello, and ends without a word (run returns once it has: it holds the
    judge's stderr), leaving none of its directories."""
    code = ("import os\n"
            "from problemtools_py.sandbox import launch\n"
            "launch.start_early()\n"
            "print(*open(f'/proc/self/task/{os.getpid()}/children').read().split(),"
            " flush=True)\n"
            "os._exit(0)\n")  # fmt: skip
    done = run_python(code)
    (server,) = done.stdout.split()
    assert done.stderr == ""
    assert spawned.dirs_of(int(server)) == []


def test_ctrl_c_at_the_terminal_reaches_the_judge_not_its_server() -> None:
    """SIGINT to the judge's process group while its early server still imports: the
    server, in a group of its own, lives on, and ends quietly when the judge leaves."""
    code = ("import os, signal, time\n"
            "signal.signal(signal.SIGINT, lambda *a: None)\n"  # (a handler: reset by exec)
            "from problemtools_py.sandbox import launch\n"
            "launch.start_early()\n"
            "(_, (proc, sock)), = launch._early\n"
            "time.sleep(0.02)\n"
            "os.killpg(os.getpgid(0), signal.SIGINT)\n"
            "time.sleep(0.3)\n"
            "print(proc.poll(), proc.pid, flush=True)\n"
            "os._exit(0)\n")  # fmt: skip
    done = run_python(code, start_new_session=True)
    alive, server = done.stdout.split()
    assert alive == "None" and done.stderr == ""
    assert spawned.dirs_of(int(server)) == []


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores")
def test_a_server_started_from_a_pinned_thread_runs_on_every_core_of_the_process() -> None:
    """A grading thread runs pinned to its leased core; a server it starts must not be
    (its interpreter would start behind whatever the machine runs there)."""
    every = os.sched_getaffinity(os.getpid())
    seen: list[set[int]] = []

    def start() -> None:
        with cores.thread_on({min(every)}), Sandbox() as box:
            seen.append(os.sched_getaffinity(box.proc.pid))

    thread = threading.Thread(target=start)
    thread.start()
    thread.join()
    assert seen == [every]
