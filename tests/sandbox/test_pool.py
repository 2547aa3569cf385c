"""sandbox/pool.py: sandboxes started lazily, the ``ahead`` ones at the first use only."""

from __future__ import annotations

from problemtools_py.sandbox.pool import SandboxPool


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
