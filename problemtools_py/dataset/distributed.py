"""Converting packages on a Ray cluster (``kattis2parquet --ray ADDRESS``): each package is
a Ray task that converts it where it runs (its own sandbox pool when programs must run);
the driver keeps a bounded window of tasks in flight and assembles the rows in input
order. The packages must be readable at the same paths on every node (a shared file
system)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from problemtools_py.dataset.build import BuildOptions, Conversion, convert
from problemtools_py.raycluster import connected
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.window import ordered_window


def _convert_on_node(path: str, options: BuildOptions) -> Conversion:
    with SandboxPool(2) as pool:
        return convert(Path(path), pool, options)


def ray_outcomes(
    address: str, packages: list[Path], options: BuildOptions, window: int = 64
) -> Iterator[tuple[Path, Conversion]]:
    with connected(address) as ray:
        task = ray.remote(_convert_on_node)
        yield from ordered_window(
            packages, lambda path: task.remote(str(path.resolve()), options), ray.get, window
        )
