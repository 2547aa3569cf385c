"""A lean session's init that never holds a program (issue 40, item 2).

A session serves one completion after another, each a program that may be hostile, and
an in-process Python program is a fork of the process that serves it: whatever that
process ever held (an earlier completion's source in its heap, in the C loop's main-file
buffer, in its compiled code) would be in the program's reach. So PID 1 of a lean jail
only keeps: once set up (imports, streams, the C loop's library), it forks a server of
runs and waits. That server reads requests; when the next one starts another completion
(the grader marks it, :data:`protocol.FRESH`) and it has served one already, it leaves the
request unread and ends, and PID 1 forks a new one from its own state, in which no
program ever was. A fork of the small init: a fraction of a millisecond per completion,
against ~20 ms for a new interpreter.

The server of runs is the subreaper of what its programs leave, so it kills and reaps
them as PID 1 did; PID 1 reaps whatever else comes to it."""

from __future__ import annotations

import os
import socket

from problemtools_py.sandbox import inprocess, syscalls
from problemtools_py.sandbox.protocol import FRESH, LEAN_REQUEST

TYPE_CHECKING = False  # (not typing's: a lean init imports this module, see records)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn

PR_SET_CHILD_SUBREAPER = 36
RENEWED = 75  # the exit status of a server of runs that left a new completion unread


# Compiled once by PID 1 before its first fork (a text of ours, never a program's): a
# server of runs forked afresh then finds the parser's and compiler's memory made, and
# compiling its completion copies ~120 pages instead of ~290 (0.45 ms instead of 2.3).
WARM_UP = """import sys
def main(n: int) -> None:
    data = [int(x) for x in sys.stdin.read().split()]
    best = {k: v for k, v in enumerate(data) if v > n}
    for i in range(len(data)):
        while i and data[i] < 0:
            i -= 1
    print(f"{sum(best.values())} {max(data, default=0)!r}", end="\\n")
if __name__ == "__main__":
    main(0)
"""


def keep(serve: Callable[[], None], rehearse: Callable[[], object] | None = None) -> NoReturn:
    """Fork a server of runs (``serve`` returns when a new completion is next), wait for
    it, and fork another while they end that way; end with the first that ends otherwise
    (the server closed the control socket, or a failure: the session is over). Before the
    second, ``rehearse`` (see mainfile.rehearse): a session that serves one program (a
    verification's) never pays for it."""
    compile(WARM_UP, "/prog/main.py", "exec", dont_inherit=True)
    inprocess.before_fork()  # (what each server of runs starts with: frozen, never collected)
    while True:
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                syscalls.prctl(PR_SET_CHILD_SUBREAPER, 1)
                serve()
                status = RENEWED
            finally:
                os._exit(status)
        while True:
            try:
                reaped, status = os.wait()
            except ChildProcessError:
                os._exit(1)
            if reaped == pid:
                break
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != RENEWED:
            os._exit(0 if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else 1)
        if rehearse is not None:
            done, rehearse = rehearse, None
            try:  # noqa: SIM105 (contextlib: a module more in every lean init)
                done()
            except Exception:  # (a rehearsal only saves time: a session goes on without)
                pass
            inprocess.before_fork()


def fresh_next(sock: socket.socket) -> bool:
    """Whether the next request on ``sock``, not yet read, starts another completion (its
    header peeked; its descriptors stay queued for whoever reads it)."""
    head = b""
    while len(head) < LEAN_REQUEST.size:
        try:
            head = sock.recv(LEAN_REQUEST.size, socket.MSG_PEEK)
        except InterruptedError:
            continue
        if not head:
            return False  # (the grader has gone: the reader finds that)
        if len(head) < LEAN_REQUEST.size:
            import select  # (the rest of a header sent in one call: microseconds)

            select.select([sock], [], [], 0.001)
    return bool(LEAN_REQUEST.unpack(head)[3] & FRESH)
