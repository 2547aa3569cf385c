"""A spawner's record of the servers it forked (see Server.spawn): their temporary
directories and control groups, which a server killed cannot remove, removed when the
spawner reaps it (SIGCHLD: they are its only children), or at its own end.

A process's temporary directories are named ``ptpy-KIND-PID-*`` (and its control groups
``ptpy-PID-N``, see cgroups), by the PID of the process that uses them: what a process
killed with no spawner to reap it left (a judge's own server, a grader's program
directory) is removed by the next server to start (:func:`sweep`) once that PID runs no
more."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time

from problemtools_py.sandbox.cgroups import Cgroups

KINDS = ("root", "cwd", "grade")  # the temporary directories named by their process
_ENDED: set[int] = set()  # servers that ended, whose control groups may be left
_GROUPS: list[Cgroups] = []  # the spawner's cgroups (its servers make theirs in the same)


def work_dirs() -> tuple[str, str]:
    """A server's own temporary directories: jails' roots, and runs' working directories."""
    return temp_dir("root"), temp_dir("cwd")


def temp_dir(kind: str) -> str:
    """A new temporary directory of this process, ``ptpy-KIND-PID-*``."""
    return tempfile.mkdtemp(prefix=f"ptpy-{kind}-{os.getpid()}-")


def dirs_of(pid: int) -> list[str]:
    """The temporary directories of the process ``pid``."""
    tmp = tempfile.gettempdir()
    with contextlib.suppress(OSError):
        return [os.path.join(tmp, n) for n in os.listdir(tmp) if _owner(n) == pid]
    return []


def running(pid: int) -> bool:
    """Whether ``pid`` is a process (a zombie too: its parent cleans up after it). Of this
    PID namespace: judges in containers of their own need a temporary directory each."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (another user's)
        return True
    return True


def _owner(name: str) -> int | None:
    """The PID in a name of temp_dir's, ``ptpy-KIND-PID-*``; None for any other."""
    parts = name.split("-", 3)
    if len(parts) == 4 and parts[0] == "ptpy" and parts[1] in KINDS and parts[2].isdigit():
        return int(parts[2])
    return None


def sweep(groups: Cgroups | None) -> None:
    """Remove the temporary directories (of this user) and control groups of processes
    that run no more: they were killed with no spawner to clean up after them."""
    uid = os.geteuid()
    with contextlib.suppress(OSError), os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            pid = _owner(entry.name)
            with contextlib.suppress(OSError):
                if (
                    pid is not None
                    and entry.is_dir(follow_symlinks=False)
                    and entry.stat(follow_symlinks=False).st_uid == uid
                    and not running(pid)
                ):
                    shutil.rmtree(entry.path, ignore_errors=True)
    if groups is not None:
        groups.remove_dead(running)


def begin(groups: Cgroups | None) -> None:
    """This process spawns from now on: it reaps its servers as they end."""
    _GROUPS[:] = [groups] if groups is not None else []
    signal.signal(signal.SIGCHLD, _reap)


def record(pid: int) -> None:
    _ENDED.discard(pid)  # (a pid used again: what an old one left is not told apart)


def forget() -> None:
    """In a spawned server: its maker's servers are not its children."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # (its runs are waited for by pid)
    _ENDED.clear()


def remove(dirs: tuple[str, ...] | list[str]) -> None:
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
        remove(dirs_of(pid))
        _ENDED.add(pid)
    _remove_groups()
    return pid > 0


def _remove_groups() -> None:
    """The control groups ended servers left, removed once empty (else tried again at
    the next server's end, and at this one's)."""
    for pid in list(_ENDED):
        if all(groups.remove_left(pid) for groups in _GROUPS):
            _ENDED.discard(pid)
