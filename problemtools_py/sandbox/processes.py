"""The sandbox servers' processes: waiting for one to end, and watching one that another
server forked (see :meth:`.server.Server.spawn`). Starting one is :mod:`.launch`'s."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
from typing import Protocol


class ServerProcess(Protocol):
    """What a sandbox keeps of its server's process (a Popen, or a SpawnedServer)."""

    @property
    def pid(self) -> int: ...

    def poll(self) -> int | None: ...

    def kill(self) -> None: ...

    def wait(self, timeout: float | None = None) -> int: ...


def readable(fd: int, timeout: float | None) -> bool:
    """Whether ``fd`` (a pidfd: its process ended) is readable within ``timeout`` seconds
    (None: for ever). poll, not select: with many servers (``-j 512``) descriptor numbers
    pass select's limit of 1024."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(None if timeout is None else timeout * 1000))


def exited_in_time(proc: ServerProcess, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for a server to end, woken the moment it does
    (Popen.wait with a timeout polls, sleeping up to 50 ms past the end)."""
    if isinstance(proc, SpawnedServer):
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True
    try:
        fd = os.pidfd_open(proc.pid)
    except OSError:  # (already reaped, or no pidfd here)
        return True
    try:
        return readable(fd, timeout)
    finally:
        os.close(fd)


class SpawnedServer:
    """A server another server forked (see Server.spawn): not this process's child (its
    maker reaps it), so it is watched through the pidfd it sent with its hello, which
    names it for good (a number could be reused once it is reaped)."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.pidfd = pidfd

    def poll(self) -> int | None:
        """None while it runs; its exit status is its maker's to collect (-1 here)."""
        if self.pidfd < 0 or readable(self.pidfd, 0):
            self._forget()
            return -1
        return None

    def kill(self) -> None:
        if self.pidfd >= 0:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        if self.pidfd >= 0 and not readable(self.pidfd, timeout):
            raise subprocess.TimeoutExpired(f"sandbox server {self.pid}", timeout or 0.0)
        self._forget()
        return -1

    def _forget(self) -> None:
        if self.pidfd >= 0:
            os.close(self.pidfd)
            self.pidfd = -1
