"""The service's workers on a Ray cluster (``gradeserver --ray ADDRESS``): one actor per
worker keeps a Grader (and its warm sandbox servers) open, and each piece of work goes
to the actor with the least in flight. The dataset directory must be readable at the
same path on every node. (gradecode's batches: see grading.cluster.nodes.)"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import Settings
from problemtools_py.raycluster import connected


class _Worker:
    def __init__(self, dataset: str | None, settings: Settings) -> None:
        self.grader = Grader(dataset, settings, jobs=1)

    def call(self, work: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``work(grader, *args)``: the service's work (see grading.service.backends)."""
        return work(self.grader, *args)

    def close(self) -> None:
        """Stop the sandbox servers, which remove their cgroups (a killed actor would
        leave them behind)."""
        self.grader.close()


class RayWorkers:
    """The service's workers on a Ray cluster (see grading.service.backends.Workers): ``size``
    actors, each running one piece of work at a time in its own Grader."""

    def __init__(self, ray: Any, dataset: Path | None, settings: Settings, size: int) -> None:
        self.ray = ray
        self.size = max(1, size)
        where = str(dataset.resolve()) if dataset is not None else None
        actor = ray.remote(num_cpus=1)(_Worker)
        self.actors: list[Any] = [actor.remote(where, settings) for _ in range(self.size)]
        self.load = [0] * self.size  # pieces of work in flight per actor
        self.refs: set[Any] = set()
        self._lock = threading.Lock()

    @property
    def running(self) -> int:
        return sum(min(1, n) for n in self.load)

    def submit(self, work: Callable[..., Any], *args: Any) -> Future[Any]:
        with self._lock:
            chosen = min(range(self.size), key=self.load.__getitem__)
            self.load[chosen] += 1
            ref = self.actors[chosen].call.remote(work, args)
            self.refs.add(ref)
        future: Future[Any] = ref.future()
        future.add_done_callback(lambda _: self._done(chosen, ref))
        return future

    def _done(self, actor: int, ref: Any) -> None:
        with self._lock:
            self.load[actor] -= 1
            self.refs.discard(ref)

    def close(self) -> None:
        with self._lock:
            pending = list(self.refs)
        if pending:
            self.ray.wait(pending, num_returns=len(pending), timeout=30)
        self.ray.get([actor.close.remote() for actor in self.actors])


@contextmanager
def ray_workers(
    address: str, dataset: Path | None, settings: Settings, size: int
) -> Iterator[RayWorkers]:
    """Actors on the cluster at ``address`` for the service; gone on leaving."""
    with connected(address) as ray:
        yield RayWorkers(ray, dataset, settings, size)
