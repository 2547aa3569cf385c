"""Where the service's work runs: :class:`LocalWorkers` (the grader's pinned threads in
this process) or, with ``gradeserver --ray``, ``cluster.actors.RayWorkers`` (actors on a Ray
cluster, each with a Grader of its own). Work is a function of a
:class:`Grader` and its arguments (``Grader.grade_tests``, ``grade_or_unknown``, ...): the
same call runs on either side."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol

from problemtools_py.errors import FatalError
from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import GradeResult, Status
from problemtools_py.grading.testrun import WALL_SHARING

Work = Callable[..., Any]
# Wall-clock runs (SandboxFusion's /run_code and /submit) at once per worker: they share
# their cores (see sandbox.cores), so a run that loops until its run_timeout holds no
# worker that a correct one behind it waits for past its client's deadline (issue 57).
WALL_PER_WORKER = WALL_SHARING


class Workers(Protocol):
    size: int  # how many pieces of work run at once

    @property
    def running(self) -> int: ...

    def submit(self, work: Work, *args: Any) -> Future[Any]:
        """``work(grader, *args)`` on one of the workers; its future completes only when
        the work has ended (or will never start)."""
        ...

    def close(self) -> None:
        """Let what runs finish, drop what waits, and release every sandbox."""
        ...


def grade_or_unknown(
    grader: Grader, pid: str, completion: str, language: str | None, memory_mb: int | None = None
) -> GradeResult:
    """``grader.grade``, with an unknown problem id the caller's status, not a failure."""
    try:
        return grader.grade(pid, completion, language, memory_mb)
    except FatalError as exc:
        return GradeResult(None, Status.UNKNOWN_PROBLEM, message=str(exc)[:200])


class LocalWorkers:
    """The grader's own threads (pinned as gradecode's are: the same speed)."""

    def __init__(self, grader: Grader) -> None:
        self.grader = grader
        self.size = grader.jobs
        self.wall_size = WALL_PER_WORKER * grader.jobs
        self.threads = grader.workers()
        self.wall = ThreadPoolExecutor(self.wall_size)  # (sandboxes are made as they are needed)
        self.busy = 0
        self._count = threading.Lock()

    @property
    def running(self) -> int:
        return self.busy

    def submit(self, work: Work, *args: Any) -> Future[Any]:
        return self.threads.submit(self._counted, work, *args)

    def submit_wall(self, work: Work, *args: Any) -> Future[Any]:
        """``submit`` for work under a wall clock: many at once, sharing the cores."""
        return self.wall.submit(self._counted, work, *args)

    def _counted(self, work: Work, *args: Any) -> Any:
        with self._count:
            self.busy += 1
        try:
            return work(self.grader, *args)
        finally:
            with self._count:
                self.busy -= 1

    def close(self) -> None:
        self.threads.shutdown(wait=True, cancel_futures=True)
        self.wall.shutdown(wait=True, cancel_futures=True)
