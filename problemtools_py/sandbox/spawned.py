"""A spawner's record of the servers it forked (see Server.spawn): their temporary
directories and control groups, which a server killed cannot remove, removed when the
spawner reaps it (SIGCHLD: they are its only children), or at its own end."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time

from problemtools_py.sandbox.cgroups import Cgroups

_DIRS: dict[int, tuple[str, str]] = {}  # pid -> the directories made for it
_ENDED: set[int] = set()  # servers that ended, whose control groups may be left
_GROUPS: list[Cgroups] = []  # the spawner's cgroups (its servers make theirs in the same)


def work_dirs() -> tuple[str, str]:
    """A server's own temporary directories: jails' roots, and runs' working directories."""
    return tempfile.mkdtemp(prefix="ptpy-root-"), tempfile.mkdtemp(prefix="ptpy-cwd-")


def begin(groups: Cgroups | None) -> None:
    """This process spawns from now on: it reaps its servers as they end."""
    _GROUPS[:] = [groups] if groups is not None else []
    signal.signal(signal.SIGCHLD, _reap)


def record(pid: int, dirs: tuple[str, str]) -> None:
    _DIRS[pid] = dirs
    _ENDED.discard(pid)  # (a pid used again: what an old one left is not told apart)


def forget() -> None:
    """In a spawned server: its maker's servers are not its children."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # (its runs are waited for by pid)
    _DIRS.clear()
    _ENDED.clear()


def remove(dirs: tuple[str, ...]) -> None:
    for directory in dirs:
        shutil.rmtree(directory, ignore_errors=True)


def reap_all(timeout: float) -> None:
    """Wait (up to ``timeout`` s) for the servers this one spawned, and collect them."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    deadline = time.monotonic() + timeout
    with contextlib.suppress(ChildProcessError):
        while time.monotonic() < deadline:
            if not _collect():
                time.sleep(0.005)
    while _ENDED and time.monotonic() < deadline:  # (a killed server's jails end first)
        _remove_groups()
        time.sleep(0.005)


def _reap(*_: object) -> None:
    with contextlib.suppress(ChildProcessError):
        while _collect():
            pass


def _collect() -> bool:
    """Collect one ended server, and remove its directories and control groups; False
    when none has ended (ChildProcessError: none is left)."""
    pid = os.waitpid(-1, os.WNOHANG)[0]
    if pid > 0:
        remove(_DIRS.pop(pid, ()))
        _ENDED.add(pid)
    _remove_groups()
    return pid > 0


def _remove_groups() -> None:
    """The control groups ended servers left, removed once empty (else tried again at
    the next server's end, and at this one's)."""
    for pid in list(_ENDED):
        if all(groups.remove_left(pid) for groups in _GROUPS):
            _ENDED.discard(pid)
