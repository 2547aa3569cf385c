"""judging/sharing.py: a submission's cases handed out to its own thread and to helpers
give the outcomes one thread judging them in order gives, whatever the interleaving."""

from __future__ import annotations

import threading
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from problemtools_py.judging.sharing import CaseQueue, Sharing


def sequential(fails: list[bool], stop_early: bool) -> list[int]:
    found = []
    for index, failed in enumerate(fails):
        found.append(index)
        if failed and stop_early:
            break
    return found


def interleave(queue: CaseQueue[int], fails: list[bool], order: list[int]) -> None:
    """Three takers (the owner is 0) take and finish cases in the order ``order`` says:
    each step, that taker finishes the case it holds, or takes one. Then the helpers finish
    theirs and the owner judges what is left, as SubmissionJudge.run does."""
    holding: dict[int, int | None] = {0: None, 1: None, 2: None}
    for who in order:
        held = holding[who]
        if held is None:
            holding[who] = queue.take()
        else:
            queue.put(held, held, fails[held])
            holding[who] = None
    for held in holding.values():
        if held is not None:
            queue.put(held, held, fails[held])
    while (index := queue.take()) is not None:
        queue.put(index, index, fails[index])
    assert queue.settle()


@settings(max_examples=300, deadline=None)
@given(
    fails=st.lists(st.booleans(), max_size=12),
    stop_early=st.booleans(),
    order=st.lists(st.integers(0, 2), max_size=60),
)
def test_any_interleaving_gives_the_sequential_outcomes(
    fails: list[bool], stop_early: bool, order: list[int]
) -> None:
    queue: CaseQueue[int] = CaseQueue(len(fails), stop_early)
    interleave(queue, fails, order)
    assert queue.outcomes() == sequential(fails, stop_early)


def in_blocks(fails: list[bool], block: int) -> list[int]:
    """One thread in order, where a failure skips the rest of its block (a legacy group
    with on_reject: break)."""
    found, skipped = [], set()
    for index, failed in enumerate(fails):
        if index in skipped:
            continue
        found.append(index)
        if failed:
            skipped.update(range(index + 1, (index // block + 1) * block))
    return found


@settings(max_examples=300, deadline=None)
@given(
    fails=st.lists(st.booleans(), max_size=12),
    block=st.integers(1, 5),
    order=st.lists(st.integers(0, 2), max_size=60),
)
def test_a_failure_skipping_the_rest_of_its_group_under_any_interleaving(
    fails: list[bool], block: int, order: list[int]
) -> None:
    def skip(index: int) -> range:
        return range(index + 1, min(len(fails), (index // block + 1) * block))

    queue: CaseQueue[int] = CaseQueue(len(fails), False, skip)
    interleave(queue, fails, order)
    assert queue.outcomes() == in_blocks(fails, block)


def test_a_case_given_back_is_taken_again_first() -> None:
    queue: CaseQueue[str] = CaseQueue(4, stop_early=True)
    assert [queue.take(), queue.take()] == [0, 1]
    queue.give_back(0)  # (its helper failed)
    queue.put(1, "b", failed=True)
    assert not queue.settle()  # (taken by no one now: its owner must judge it)
    assert queue.take() == 0
    queue.put(0, "a", failed=False)
    assert queue.take() is None and queue.settle()
    assert queue.outcomes() == ["a", "b"]


def test_a_given_back_case_after_a_failure_is_dropped() -> None:
    queue: CaseQueue[str] = CaseQueue(5, stop_early=True)
    assert [queue.take(), queue.take(), queue.take()] == [0, 1, 2]
    queue.put(1, "b", failed=True)
    queue.give_back(2)  # (past the first failure: never needed)
    queue.put(0, "a", failed=False)
    assert queue.take() is None and queue.settle()
    assert queue.outcomes() == ["a", "b"]


def test_stopped_the_outcomes_end_at_the_first_case_not_judged() -> None:
    queue: CaseQueue[str] = CaseQueue(6, stop_early=False)
    taken = [queue.take() for _ in range(3)]
    assert taken == [0, 1, 2]
    queue.put(0, "a", failed=False)
    queue.put(2, "c", failed=False)
    queue.give_back(1)
    queue.stop()  # (the verification is closing)
    assert queue.take() is None and queue.settle() and queue.left() == 0
    assert queue.outcomes() == ["a"]


def test_settle_waits_for_the_helpers_cases() -> None:
    queue: CaseQueue[str] = CaseQueue(2, stop_early=False)
    first = queue.take()
    assert first == 0

    def helper() -> None:
        time.sleep(0.2)
        queue.put(0, "a", failed=False)

    thread = threading.Thread(target=helper)
    thread.start()
    assert queue.take() == 1
    queue.put(1, "b", failed=False)
    assert queue.settle() and queue.outcomes() == ["a", "b"]
    thread.join()


def test_a_helper_gets_the_queue_with_the_most_left_and_none_once_finished() -> None:
    sharing = Sharing()
    small: CaseQueue[int] = CaseQueue(9, stop_early=False)
    large: CaseQueue[int] = CaseQueue(30, stop_early=False)
    finished = threading.Event()
    with sharing.offer(small, lambda: True), sharing.offer(large, lambda: False):
        helper = sharing.next_helper(8, finished.is_set)
        assert helper is not None and helper() is False  # (large's)
        assert sharing.next_helper(31, lambda: True) is None  # (none has that many)
    found: list[object] = []
    waiting = threading.Thread(target=lambda: found.append(sharing.next_helper(8, finished.is_set)))
    waiting.start()
    time.sleep(0.1)
    with sharing.offer(large, lambda: True):  # (offered while it waits: it gets it)
        waiting.join(timeout=5)
    assert found and found[0] is not None
    late = threading.Thread(target=lambda: found.append(sharing.next_helper(8, finished.is_set)))
    late.start()
    finished.set()
    sharing.wake()  # (as when a submission's judging ends)
    late.join(timeout=5)
    assert not late.is_alive() and found[-1] is None
