"""How many cores "all cores" means."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity: a container's cpuset, or
    ``taskset``), not every core the machine has: with 4 of 64 allowed, 64 workers would
    queue 16 deep on each."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1
