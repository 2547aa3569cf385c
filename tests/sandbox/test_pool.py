"""sandbox/pool.py: sandboxes started lazily, the ``ahead`` ones at the first use only."""

from __future__ import annotations

import threading

import pytest

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
            assert first.alive  # (the first of the two started at once to be ready)
            pool._started()
            assert len(pool._all) == 2
            with pool.sandbox() as second:
                assert second is not first and len(pool._all) == 2  # (the other: ready)
                with pool.sandbox() as third:  # (a third at once: started now)
                    assert third.alive and len(pool._all) == 3
        with pool.sandbox():
            pass
        assert len(pool._all) == 3 and pool.ahead == 0


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


def test_the_first_user_takes_the_first_ready_sandbox_not_waiting_for_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Of the sandboxes started together at the first use, the first ready one is taken
    at once: a slow start of another keeps no user waiting."""
    release = threading.Event()
    released: list[bool] = []
    real_new = SandboxPool._new
    calls = iter(range(100))

    def new(self: SandboxPool) -> Sandbox:
        if next(calls) == 1:  # (the second start waits for the test's word)
            released.append(release.wait(30))
        return real_new(self)

    monkeypatch.setattr(SandboxPool, "_new", new)
    with SandboxPool(2, ahead=2) as pool:
        with pool.sandbox() as first:
            assert first.run(["true"], limits=Limits()).ok
            release.set()
        pool._started()
    assert released == [True] and len(pool._all) == 0
