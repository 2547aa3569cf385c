"""The node's cores leased as one budget (sandbox.cores): a core is one grader's at a
time whatever process it lives in, a dead process's cores come back, wall-clock runs
share a core that no exclusive lease holds, and a waiter is not passed by a grader that
gives a core back and asks again. Each test leases in a directory of its own (ENV), so a
grader elsewhere on the machine changes nothing here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from problemtools_py.sandbox import cores

N = len(cores.node_cores())


@pytest.fixture(autouse=True)
def own_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    directory = tmp_path / "cores"
    monkeypatch.setenv(cores.ENV, str(directory))
    yield directory


class Holder(threading.Thread):
    """A thread that leases a core and holds it until told to give it back."""

    def __init__(self, shared: bool = False) -> None:
        super().__init__(daemon=True)
        self.shared = shared
        self.core: int | None = None
        self.taken = threading.Event()
        self.done = threading.Event()

    def run(self) -> None:
        with cores.leased(self.shared) as core:
            self.core = core
            self.taken.set()
            self.done.wait()


def _every_core_held(shared: bool = False, per_core: int = 1) -> list[Holder]:
    """Holders started and holding: every core of the budget (``per_core`` shared ones
    on each, with ``shared``)."""
    holders = [Holder(shared) for _ in range(N * per_core)]
    for holder in holders:
        holder.start()
        assert holder.taken.wait(10)
    return holders


def _at_the_turnstile() -> None:
    """Wait until a waiter holds the turnstile (whatever the machine's load)."""
    import fcntl

    fd = os.open(f"{cores.lease_dir()}/{cores.TURNSTILE}", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        for _ in range(1000):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # (held: the waiter is there)
            fcntl.flock(fd, fcntl.LOCK_UN)
            time.sleep(0.01)
        raise AssertionError("no waiter came to the turnstile in 10 s")
    finally:
        os.close(fd)


def _end(*holders: Holder) -> None:
    for holder in holders:
        holder.done.set()
    for holder in holders:
        holder.join()


def test_every_core_is_one_holders_and_the_next_waits_for_one_to_free() -> None:
    holders = _every_core_held()
    assert sorted(h.core for h in holders) == cores.node_cores()  # type: ignore[type-var]
    late = Holder()
    late.start()
    assert not late.taken.wait(0.3)  # (every core is held)
    holders[0].done.set()
    assert late.taken.wait(10) and late.core == holders[0].core
    _end(*holders, late)


def test_leases_nest_in_a_thread() -> None:
    with cores.leased() as outer, cores.leased() as inner:
        assert outer is not None and inner == outer == cores.current()
    assert cores.current() is None


def test_a_dead_process_gives_its_cores_back() -> None:
    code = (
        "from problemtools_py.sandbox import cores\nimport threading, time\n"
        "def hold():\n    with cores.leased():\n        time.sleep(60)\n"
        f"for _ in range({N}):\n    threading.Thread(target=hold, daemon=True).start()\n"
        "time.sleep(1); print('held', flush=True); time.sleep(60)\n"
    )
    with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE) as other:
        try:
            assert other.stdout is not None and other.stdout.readline() == b"held\n"
            waiter = Holder()
            waiter.start()
            assert not waiter.taken.wait(0.3)  # (another process holds every core)
            other.send_signal(signal.SIGKILL)
            assert waiter.taken.wait(10)
            waiter.done.set()
            waiter.join()
        finally:
            other.kill()


def test_a_forked_child_keeps_none_of_its_parents_leases() -> None:
    held = _every_core_held()
    pid = os.fork()
    if pid == 0:  # (a child that lives on, as a sandbox server forked from a grader does)
        time.sleep(3)
        os._exit(0)
    try:
        _end(*held)
        again = Holder()
        again.start()
        assert again.taken.wait(2)  # (the child's copies would hold the cores 3 s more)
        again.done.set()
        again.join()
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def test_wall_clock_runs_share_a_core_and_an_exclusive_lease_waits_for_them() -> None:
    shared = _every_core_held(shared=True, per_core=3)
    per_core = {core: sum(h.core == core for h in shared) for core in cores.node_cores()}
    assert set(per_core.values()) == {3}  # (spread evenly over the cores)
    exclusive = Holder()
    exclusive.start()
    assert not exclusive.taken.wait(0.3)
    late = Holder(shared=True)  # asks after the exclusive one: goes after it
    late.start()
    first = cores.node_cores()[0]
    for holder in shared:
        if holder.core == first:
            holder.done.set()
    assert exclusive.taken.wait(10) and exclusive.core == first
    if N > 1:  # (the shared one takes another core meanwhile)
        assert late.taken.wait(10) and late.core != first
    _end(*shared, exclusive, late)


def test_a_grader_asking_again_does_not_pass_one_that_waits() -> None:
    holders = _every_core_held()
    waiter = Holder()
    waiter.start()
    _at_the_turnstile()
    got_again: list[int | None] = []

    def again() -> None:
        with cores.leased() as core:
            got_again.append(core)

    holders[0].done.set()
    holders[0].join()
    second = threading.Thread(target=again)
    second.start()
    assert waiter.taken.wait(10)
    assert not got_again  # (it queues behind the waiter, which holds the freed core)
    waiter.done.set()
    second.join(10)
    assert got_again
    _end(*holders)


def test_a_lease_directory_others_may_change_is_refused(own_budget: Path) -> None:
    own_budget.mkdir(mode=0o777)
    own_budget.chmod(0o777)
    with pytest.raises(OSError, match="only its owner"):
        cores.lease_dir()
    own_budget.rmdir()
    own_budget.symlink_to("/tmp")
    with pytest.raises(OSError):
        cores.lease_dir()


def test_a_core_given_back_wakes_the_waiter_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The turnstile's holder waits on the doorbell a grader giving a core back rings:
    with its own look far off (a minute), it still takes the core as it frees."""
    monkeypatch.setattr(cores, "WAKE_AT_LEAST", 60.0)
    holders = _every_core_held()
    waiter = Holder()
    waiter.start()
    time.sleep(0.3)  # (it is waiting on the bell)
    for round_ in range(3):  # (and again: the bell is not spent by one ring)
        holders[round_ % N].done.set()
        holders[round_ % N].join()
        assert waiter.taken.wait(10)
        waiter.done.set()
        waiter.join()
        holders[round_ % N] = Holder()
        holders[round_ % N].start()
        assert holders[round_ % N].taken.wait(10)
        waiter = Holder()
        waiter.start()
        time.sleep(0.3)
    _end(*holders, waiter)


def test_a_doorbell_that_is_no_fifo_is_made_again(own_budget: Path) -> None:
    """(A regular file there would read at once, ever: the waiter would spin.)"""
    holders = _every_core_held()
    (own_budget / cores.DOORBELL).write_text("stale")
    waiter = Holder()
    waiter.start()
    time.sleep(0.2)
    assert (own_budget / cores.DOORBELL).is_fifo()
    _end(holders[0])
    assert waiter.taken.wait(10)
    _end(*holders[1:], waiter)
