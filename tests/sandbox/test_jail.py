"""sandbox/jail.py: a session's init is forked by the server itself, as PID 1 of a new PID
namespace, and the server's own next children are back in its namespace; an init that
cannot set its jail up says why."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from helpers.packages import run_python

from problemtools_py.sandbox.jail import Jail, JailSpec


def _status(pid: int) -> str:
    return Path(f"/proc/{pid}/status").read_text()


def test_the_init_is_pid_1_of_its_own_namespace_and_a_child_of_the_server(
    tmp_path: Path,
) -> None:
    own = os.readlink("/proc/self/ns/pid")
    root = tmp_path / "root"
    root.mkdir()
    jail = Jail(JailSpec(str(root), "/work", (), 1 << 20, (), None))
    init = jail.init_pid
    try:
        assert init is not None and jail.alive
        status = _status(init)
        assert re.search(rf"^PPid:\s+{os.getpid()}$", status, re.M)  # no process between
        assert re.search(rf"^NSpid:\s+{init}\s+1$", status, re.M)
        assert os.readlink(f"/proc/{init}/ns/pid") != own
        # the namespace was this thread's for one child: the next fork is in ours again
        assert os.readlink("/proc/self/ns/pid_for_children") == own
    finally:
        jail.close()
    with pytest.raises(ChildProcessError):  # (reaped by close)
        os.waitpid(init, os.WNOHANG)


def test_a_jail_closed_at_once_leaves_no_process(tmp_path: Path) -> None:
    """Closed before its init built anything: the init is killed and reaped all the same."""
    jails = []
    for n in range(3):
        root = tmp_path / f"root{n}"
        root.mkdir()
        jails.append(Jail(JailSpec(str(root), "/work", (), 1 << 20, (), None)))
    pids = [jail.init_pid for jail in jails]
    for jail in jails:
        jail.close()
    for pid in pids:
        assert pid is not None and not Path(f"/proc/{pid}").exists()


# A server whose jails' inits cannot enter their mount namespace (the call made to fail
# here): its probe run says why, and the server goes on with partial isolation. In a
# process of its own (a server's probe enters a network namespace).
FAILING_INIT = r"""
import socket, sys, time
from problemtools_py.sandbox import jail, server, spawned, syscalls
real = syscalls.unshare
def unshare(flags):
    if flags & syscalls.CLONE_NEWNS:
        raise OSError(1, "unshare: Operation not permitted (made to fail)")
    return real(flags)
syscalls.unshare = unshare
if sys.argv[1] == "late":  # the run is handed over once the init is gone
    start = jail.Jail.start
    def late(self, *args, **kwargs):
        time.sleep(0.3)
        return start(self, *args, **kwargs)
    jail.Jail.start = late
ours, theirs = socket.socketpair()
made = server.Server(ours)
spawned.remove((made.root_dir, made.host_cwd_base))
print(made.mode.label)
"""


@pytest.mark.parametrize("when", ["at_once", "late"])
def test_an_init_that_cannot_set_its_jail_up_says_why(when: str) -> None:
    """The init's error reaches the run, whether the run was handed over before it ended
    (the run then finds no report) or after (the hand-over fails): before, the first gave
    "the sandbox lost track of the program" and the second a server crash."""
    done = run_python(FAILING_INIT, when)
    assert done.stdout.strip() == (  # (as root: refused, see test_fail_closed)
        "refused: no namespaces (sandbox setup failed: [Errno 1] unshare: Operation not "
        "permitted (made to fail))"
    ), done.stderr
    assert "Traceback" not in done.stderr
