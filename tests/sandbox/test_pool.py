"""sandbox/pool.py: sandboxes started lazily, the ``ahead`` ones at the first use only."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from problemtools_py.sandbox import pool as pool_module
from problemtools_py.sandbox import spawned
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.processes import exited_in_time
from problemtools_py.sandbox.results import Limits


def test_a_pool_never_used_starts_no_sandbox() -> None:
    pool = SandboxPool(3, ahead=2)
    pool.close()
    assert pool._all == [] and pool._starting == []


def test_the_first_use_starts_the_ahead_ones_beside_its_own() -> None:
    with SandboxPool(3, ahead=2) as pool:
        with pool.sandbox() as first:
            assert first.alive
            assert len(pool._all) == 2  # (it took one of the two started at once)
            with pool.sandbox() as second:
                assert second is not first and len(pool._all) == 2  # (the other: ready)
                with pool.sandbox() as third:  # (a third at once: started now)
                    assert third.alive and len(pool._all) == 3
        with pool.sandbox():
            pass
        assert len(pool._all) == 3 and pool.ahead == 0


Early = list[tuple[bool, threading.Thread, list[Sandbox]]]


@pytest.fixture
def early(monkeypatch: pytest.MonkeyPatch) -> Early:
    """A process's early-spawner state of its own (start_early acts once per process)."""
    fresh: Early = []
    monkeypatch.setattr(pool_module, "_early", fresh)
    monkeypatch.setattr(pool_module.atexit, "register", lambda *a, **k: None)
    return fresh


def test_the_first_pool_takes_the_spawner_started_early(early: Early) -> None:
    pool_module.start_early()
    pool_module.start_early()  # (once per process)
    assert len(early) == 1
    _, thread, made = early[0]
    thread.join()
    (spawner,) = made
    with SandboxPool(2) as pool, pool.sandbox() as box:
        assert pool._spawner is spawner and box.run(["true"], limits=Limits()).ok
    assert not spawner.alive


def test_an_early_spawner_no_pool_took_is_closed_at_exit(early: Early) -> None:
    """Its line closed, not waited for: it ends by itself."""
    pool_module.start_early()
    _, thread, made = early[0]
    thread.join()
    (spawner,) = made
    pool_module._close_early()
    assert made == [] and exited_in_time(spawner.proc, 5.0)
    spawner.proc.wait()
    with SandboxPool(2, isolate=False) as pool, pool.sandbox() as box:  # (not taken)
        assert box.run(["true"], limits=Limits()).ok and pool._spawner is not spawner


def test_released_servers_end_before_close_waits_and_a_later_use_starts_anew() -> None:
    with SandboxPool(2) as pool:
        with pool.sandbox() as box:
            assert box.run(["true"], limits=Limits()).ok
        pool.release()  # (the caller writes its report meanwhile)
        assert pool._all == [] and pool._ending == [box]
        assert exited_in_time(box.proc, 5.0)  # its end started without close()
        with pool.sandbox() as again:  # (used after all: a new server)
            assert again is not box and again.run(["true"], limits=Limits()).ok
    assert pool._ending == [] and not again.alive


def test_a_server_whose_judge_left_before_its_hello_ends_quietly() -> None:
    """The judge exits while its early spawner still starts: the server finds it gone
    when it says hello, and ends without a word (run returns once it has: it holds the
    judge's stderr), leaving none of its directories."""
    code = ("import os, time\n"
            "from problemtools_py.sandbox import pool\n"
            "pool.start_early()\n"
            "kids, deadline = [], time.monotonic() + 10\n"
            "while not kids and time.monotonic() < deadline:\n"
            "    for t in os.listdir('/proc/self/task'):\n"
            "        kids += open(f'/proc/self/task/{t}/children').read().split()\n"
            "print(*kids, flush=True)\n"
            "os._exit(0)\n")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    (server,) = done.stdout.split()
    assert done.stderr == ""
    assert spawned.dirs_of(int(server)) == []
