"""``gradeserver --replicas N``: N grading services behind one address, no balancer to
install. Each replica is a ``gradeserver`` process of its own (its own grader, sandbox
pool and queue) listening on the same ``host:port`` with ``SO_REUSEPORT``, so the kernel
spreads new connections over them; replica k also listens alone on ``port + k``, where
its ``/metrics`` and ``/health`` are its own (a balancer's health checks, an autoscaler's
per-replica load). This process starts them, passes SIGTERM and SIGINT on, and stops all
when one ends (its exit code is the first that is not 0)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from types import FrameType

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode

MODULE = "problemtools_py.cli.gradeserver"


def free_ports(host: str, count: int) -> int:
    """A port ``p`` with ``p`` .. ``p + count`` free now."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind((host, 0))
            base = int(probe.getsockname()[1])
        if base + count < 65536 and all(_free(host, base + k) for k in range(1, count + 1)):
            return base
    raise FatalError(f"no {count + 1} free ports in a row on {host}")


def _free(host: str, port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def run_replicas(argv: Sequence[str], count: int, host: str, port: int) -> ExitCode:
    """``count`` replicas of ``gradeserver argv`` on ``host:port`` (0: a free one)."""
    if port == 0:
        port = free_ports(host, count)
    elif port + count >= 65536:
        raise FatalError(f"--replicas {count} needs the ports {port} to {port + count}")
    print(
        f"gradeserver: {count} replicas on http://{host}:{port} (each alone on ports "
        f"{port + 1}-{port + count})",
        flush=True,
    )
    children = [
        subprocess.Popen(
            [sys.executable, "-m", MODULE, *argv, "--port", str(port), "--replica", str(k)]
        )
        for k in range(1, count + 1)
    ]

    def forward(signum: int, frame: FrameType | None) -> None:
        for child in children:
            if child.poll() is None:
                child.send_signal(signum)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, forward)
    codes = _wait(children)
    first = next((c for c in codes if c != 0), 0)
    return ExitCode(first) if first in {c.value for c in ExitCode} else ExitCode.INTERNAL


def _wait(children: list[subprocess.Popen[bytes]]) -> list[int]:
    """Every child's exit code; when one ends, the others are stopped (SIGTERM)."""
    import time

    while all(child.poll() is None for child in children):
        time.sleep(0.2)
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    codes = []
    for child in children:
        try:
            codes.append(child.wait(timeout=60))
        except subprocess.TimeoutExpired:
            child.kill()
            codes.append(child.wait())
    return codes
