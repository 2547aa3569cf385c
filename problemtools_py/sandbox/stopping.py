"""Ctrl-C ends every program at once. Python's own answer to SIGINT is a KeyboardInterrupt
in the main thread only; the worker threads go on waiting for the runs they asked for,
and the command's end waits for them (an expected-TLE run to its margin: minutes, with a
long time limit). With :func:`stop_on_interrupt` installed, the first SIGINT kills every
sandbox server this process started (their jails and programs die with them: each
jail's init dies with its server, and the programs with their PID namespace's init),
refuses new ones, and then raises KeyboardInterrupt as Python would: the threads waiting
on a killed server get an error at once and end. Should the process still be there GRACE
seconds later, it ends then: a KeyboardInterrupt that lands while the main thread imports
can leave a module lock held (CPython's), and threads importing wait on it for ever."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
import weakref

TYPE_CHECKING = False  # (not typing's: importing typing costs every command ~3 ms)
if TYPE_CHECKING:
    from types import FrameType
    from typing import Protocol

    class Killable(Protocol):
        def kill(self) -> None: ...


GRACE = 10.0  # seconds from Ctrl-C to the end of a process that did not end by itself

_live: weakref.WeakSet[Killable] = weakref.WeakSet()
_stopped = threading.Event()


def track(process: Killable) -> None:
    """A server process to kill on Ctrl-C (forgotten with the last reference to it)."""
    _live.add(process)


def stopped() -> bool:
    """Whether Ctrl-C came: no sandbox starts after it."""
    return _stopped.is_set()


def stop_all() -> None:
    """Kill every tracked server now; no new one starts (see :func:`stopped`)."""
    _stopped.set()
    processes: list[Killable] = []
    for _ in range(5):  # (another thread may add one meanwhile: the copy is tried again)
        with contextlib.suppress(RuntimeError):
            processes = list(_live)
            break
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.kill()


def _interrupted(signum: int, frame: FrameType | None) -> None:
    stop_all()
    raise KeyboardInterrupt


def stop_on_interrupt(exit_code: int) -> None:
    """Install the SIGINT handler (from the main thread, where Python's own is in place:
    a process started with SIGINT ignored, as a background job of a script, keeps
    ignoring it), and the watch that ends the process with ``exit_code`` GRACE seconds
    after it ran. (The watch waits from now: a thread started in the handler could wait
    for a lock the interrupted main thread holds.)"""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    threading.Thread(target=_watch, args=(exit_code,), name="ctrl-c", daemon=True).start()
    signal.signal(signal.SIGINT, _interrupted)


def _watch(exit_code: int) -> None:
    _stopped.wait()
    time.sleep(GRACE)
    with contextlib.suppress(OSError, ValueError):
        name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
        os.write(2, f"{name}: interrupted\n".encode())
    os._exit(exit_code)
