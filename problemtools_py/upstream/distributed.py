"""``importdataset --ray ADDRESS``: each screened row's references run as a Ray task on
whichever node takes it. A row travels whole (statement, capped tests: at most 4 MiB), so
no shared file system is needed; each Ray worker process keeps one grader of its own
(started on its first row, closed when the process ends). The driver reads the source,
screens the rows in input order, keeps a bounded window of tasks in flight and writes the
journal and the card's files as a local run does, so the files are the same."""

from __future__ import annotations

import atexit
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import Settings
from problemtools_py.raycluster import connected
from problemtools_py.upstream.curate import Dropped, Screened
from problemtools_py.upstream.references import Kept, RowOptions, curated

_grader: Grader | None = None  # this Ray worker process's


def _curate_on_node(screened: Screened, options: RowOptions) -> Kept | Dropped:
    global _grader
    if _grader is None:
        _grader = Grader(None, Settings(raw=True), 1)
        atexit.register(_grader.close)
    return curated(_grader, screened, options)


@contextmanager
def ray_curation(
    address: str,
) -> Iterator[tuple[Callable[[Screened, RowOptions], Any], Callable[[Any], Kept | Dropped]]]:
    """(start a row's references on the cluster, wait for its outcome)."""
    with connected(address) as ray:
        task = ray.remote(_curate_on_node)
        yield (lambda screened, options: task.remote(screened, options)), ray.get
