"""Joining a Ray cluster for ``--ray ADDRESS`` (kattis2parquet, gradecode): ``local``
starts one here, anything else is Ray's own address (``auto``, ``ray://host:port``).
Ray is optional: without it, or without a reachable cluster, the command stops with a
clear message."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from problemtools_py.errors import FatalError


@contextmanager
def connected(address: str) -> Iterator[Any]:
    """The ``ray`` module, initialised for ``address``, shut down on leaving."""
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
        yield ray
    finally:
        ray.shutdown()
