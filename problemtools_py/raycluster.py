"""Joining a Ray cluster for ``--ray ADDRESS`` (kattis2parquet, gradecode): ``local``
starts one here, anything else is Ray's own address (``auto``: the cluster this machine
is a node of; ``host:port``: a head's GCS port, this process a driver on the cluster;
``ray://host:port``: Ray Client, this process outside the cluster). Ray is optional:
without it, or when the cluster cannot be joined, the command stops with one line
saying what to set or install: no head answering, the cluster's token authentication
(Ray 2.59 turns it on for clusters started by ``ray start``), another Ray version."""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
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
    _reachable(address)
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise FatalError(_why(address, exc)) from exc
    try:
        yield ray
    finally:
        ray.shutdown()


def _reachable(address: str) -> None:
    """A ``host:port`` (or ``ray://host:port``) where nothing listens: said at once,
    not after Ray's minute of retries."""
    bare = address.removeprefix("ray://")
    host, _, port = bare.rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        with socket.create_connection((host, int(port)), timeout=5):
            return
    except OSError as exc:
        raise FatalError(
            f"no Ray cluster answers at {address} ({exc.strerror or exc}): is "
            "`ray start --head` running there, and the port open to this "
            "machine?"
        ) from None


def _why(address: str, exc: BaseException) -> str:
    text = str(exc)
    if "Version mismatch" in text or "version mismatch" in text:
        found = re.search(r"started with:\s*Ray: (\S+)\s*Python: (\S+)", text)
        wanted = f": pip install ray=={found[1]} with Python {found[2]}" if found else ""
        return (
            f"the Ray cluster at {address} runs another Ray or Python version than "
            f"this machine; install the cluster's here{wanted}"
        )
    if "Could not find any running Ray instance" in text:
        return (
            "no Ray cluster runs on this machine (--ray auto joins the one this machine "
            "is a node of): start one with `ray start --head`, or give its host:port"
        )
    if isinstance(exc, ConnectionError) and address != "local":
        token = os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
        has = token or (Path.home() / ".ray" / "auth_token").is_file()
        hint = (
            (
                "set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN to the cluster's token "
                "(`ray get-auth-token` on the head prints it)"
            )
            if not has
            else (
                "check that RAY_AUTH_TOKEN (or ~/.ray/auth_token) is the head's: `ray "
                "get-auth-token` there, and that RAY_AUTH_MODE=token"
            )
        )
        return (
            f"cannot join the Ray cluster at {address}: it answers but refuses this "
            f"process; most often its token authentication: {hint}"
        )
    return f"cannot connect to the Ray cluster at {address}: {text.strip()[:300]}"
