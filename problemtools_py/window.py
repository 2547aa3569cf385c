"""Results in input order from work started ahead, with a bounded number in flight: the
pattern of grade_many, kattis2parquet and its Ray conversion, written once."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

Item = TypeVar("Item")
Handle = TypeVar("Handle")
Result = TypeVar("Result")


def ordered_window(
    items: Iterable[Item],
    start: Callable[[Item], Handle],
    finish: Callable[[Handle], Result],
    size: int,
) -> Iterator[tuple[Item, Result]]:
    """``start`` each item (a future, a Ray reference...), keeping at most ``size``
    started and not yet finished, and yield each item with ``finish(handle)`` in input
    order. Memory stays bounded whatever the number of items; ``items`` is read lazily."""
    pending: deque[tuple[Item, Handle]] = deque()
    for item in items:
        pending.append((item, start(item)))
        if len(pending) >= max(1, size):
            done, handle = pending.popleft()
            yield done, finish(handle)
    while pending:
        done, handle = pending.popleft()
        yield done, finish(handle)
