"""Grading on a Ray cluster (``gradecode --ray ADDRESS``): one actor per worker keeps a
Grader (and its warm sandbox servers) open; completions are sent in batches of the same
problem, so each worker fetches a problem's tests once. Results come back in input order.
The dataset directory must be readable at the same path on every node."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from problemtools_py.errors import FatalError
from problemtools_py.grading.grader import Grader, GradeResult, Settings

BATCH = 16


class _Worker:
    def __init__(self, dataset: str, settings: Settings) -> None:
        self.grader = Grader(dataset, settings, jobs=1)

    def grade_batch(self, batch: list[tuple[int, str, str]]) -> list[tuple[int, dict[str, Any]]]:
        return [
            (index, self.grader.grade(pid, completion).as_dict())
            for index, pid, completion in batch
        ]


def ray_grade(
    address: str, dataset: Path, settings: Settings, items: Sequence[tuple[str, str]], workers: int
) -> Iterator[GradeResult]:
    try:
        import ray
    except ImportError:
        raise FatalError("--ray needs Ray (pip install 'problemtools_py[ray]')") from None
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address != "local":
        kwargs["address"] = address
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise FatalError(f"cannot connect to the Ray cluster at {address}: {exc}") from exc
    try:
        actor = ray.remote(num_cpus=1)(_Worker)
        pool: list[Any] = [
            actor.remote(str(dataset.resolve()), settings) for _ in range(max(1, workers))
        ]
        by_problem: defaultdict[str, list[tuple[int, str, str]]] = defaultdict(list)
        for index, (pid, completion) in enumerate(items):
            by_problem[pid].append((index, pid, completion))
        batches = [
            group[i : i + BATCH]
            for group in by_problem.values()
            for i in range(0, len(group), BATCH)
        ]
        refs = [pool[n % len(pool)].grade_batch.remote(batch) for n, batch in enumerate(batches)]
        done: dict[int, dict[str, Any]] = {}
        next_index = 0
        for ref in refs:
            for index, result in ray.get(ref):
                done[index] = result
            while next_index in done:
                yield GradeResult(**done.pop(next_index))
                next_index += 1
        while next_index in done:
            yield GradeResult(**done.pop(next_index))
            next_index += 1
    finally:
        ray.shutdown()
