"""sandbox/processes.py and Server.spawn: the servers' interpreter, and servers forked from
a spawner (started in a millisecond), which isolate as a new one does and leave nothing
behind."""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import tempfile
import time
from pathlib import Path

import pytest
from helpers.packages import run_python

from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.processes import SpawnedServer
from problemtools_py.sandbox.results import Limits, Outcome, SandboxError

LIMITS = Limits(cpu_seconds=1.0, memory_bytes=256 << 20, output_bytes=1 << 20)


def gone(pid: int, timeout: float = 5.0) -> bool:
    """Whether the process has ended and been collected (no zombie left)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists():  # (a zombie is still there)
            return True
        time.sleep(0.01)
    return False


def sockets_of(pid: int) -> int:
    fds = Path(f"/proc/{pid}/fd")
    return sum(1 for fd in fds.iterdir() if os.readlink(fd).startswith("socket:"))


def test_a_spawned_server_runs_as_a_new_one_and_leaves_nothing() -> None:
    spawner = Sandbox()
    try:
        box = Sandbox(spawner=spawner)
        assert isinstance(box.proc, SpawnedServer) and box.proc.pid != spawner.proc.pid
        assert (box.isolation, box.python, box.stdlib) == (
            spawner.isolation, spawner.python, spawner.stdlib)
        # its own socket only: not the spawner's line to this judge
        assert sockets_of(box.proc.pid) == 1
        run = box.run(["sh", "-c", "echo $$; id -u; ls /"], limits=LIMITS)
        assert run.outcome is Outcome.OK
        pid, uid, *_ = run.stdout.decode().split()
        assert int(pid) <= 3 and uid != "0"  # its own PID namespace, not root
        assert box.alive
        pid_of_box = box.proc.pid
        box.close()
        assert gone(pid_of_box)  # ended, and its spawner collected it
        assert spawner.alive
    finally:
        spawner.close()


def test_a_spawner_runs_nothing_itself() -> None:
    spawner = Sandbox()
    try:
        Sandbox(spawner=spawner).close()
        with pytest.raises(SandboxError, match="runs nothing"):
            spawner.run(["true"], limits=LIMITS)
    finally:
        spawner.close()


def test_a_spawn_request_without_its_socket_is_refused() -> None:
    spawner = Sandbox()
    try:
        a, b = socket.socketpair()
        with a, b, pytest.raises(SandboxError, match="needs one socket"):
            spawner._spawn([a.fileno(), b.fileno()])
        assert spawner.alive
    finally:
        spawner.close()


def test_a_pool_forks_its_sandboxes_from_one_spawner_and_ends_them_all() -> None:
    with SandboxPool(3, ahead=2) as pool:
        with pool.sandbox() as first, pool.sandbox() as second, pool.sandbox() as third:
            boxes = [first, second, third]
            assert all(isinstance(box.proc, SpawnedServer) for box in boxes)
            assert all(box.run(["true"], limits=LIMITS).ok for box in boxes)
        spawner = pool._spawner
        assert spawner is not None and spawner not in pool._all
        pids = [box.proc.pid for box in boxes] + [spawner.proc.pid]
    assert all(gone(pid) for pid in pids)


def test_a_pool_whose_spawner_died_starts_another() -> None:
    with SandboxPool(2) as pool:
        with pool.sandbox() as first:
            assert first.run(["true"], limits=LIMITS).ok
        spawner = pool._spawner
        assert spawner is not None
        spawner.proc.kill()
        spawner.proc.wait()
        with pool.sandbox() as same:  # (the free one still serves: it is its own process)
            assert same is first and same.run(["true"], limits=LIMITS).ok
            with pool.sandbox() as more:
                assert more.run(["true"], limits=LIMITS).ok
                assert pool._spawner is not spawner and pool._spawner is not None


@pytest.mark.skipif(os.geteuid() != 0, reason="namespaces need root")
def test_each_spawned_server_has_a_network_namespace_of_its_own() -> None:
    """As new servers have: programs running at once in two sandboxes share no loopback
    and no abstract Unix sockets."""
    spawner = Sandbox()
    try:
        boxes = [Sandbox(spawner=spawner) for _ in range(2)]
        spaces = {os.readlink(f"/proc/{box.proc.pid}/ns/net") for box in [*boxes, spawner]}
        assert len(spaces) == 3 and os.readlink("/proc/self/ns/net") not in spaces
        for box in boxes:
            box.close()
    finally:
        spawner.close()


def test_a_spawned_server_killed_leaves_no_directories_or_cgroups() -> None:
    """A server killed cannot clean up: its spawner, which made its directories and reaps
    it, removes them, and the control groups of the session it had open."""
    tmp = Path(tempfile.gettempdir())
    spawner = Sandbox()
    try:
        before = set(tmp.glob("ptpy-*"))
        box = Sandbox(spawner=spawner)
        mine = set(tmp.glob("ptpy-*")) - before
        assert len(mine) == 2  # (its jails' roots and its runs' working directories)
        session = box.session(limits=LIMITS)
        session.__enter__()
        assert box.run(["true"], limits=LIMITS).ok
        pid = box.proc.pid
        groups = list(Path("/sys/fs/cgroup").glob(f"**/ptpy-{pid}-*"))
        assert groups or spawner.isolation != "full"  # (a session's, while it is open)
        box.proc.kill()
        assert gone(pid)
        deadline = time.monotonic() + 5
        while any(p.exists() for p in [*mine, *groups]) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not any(d.exists() for d in mine)
        assert not any(g.exists() for g in groups)
        with contextlib.suppress(SandboxError):  # (its server is gone)
            session.__exit__(None, None, None)
        box.close()
    finally:
        spawner.close()


def test_a_server_whose_judge_left_with_its_hello_unread_ends_quietly() -> None:
    """A judge that exits with the server's hello unread (its early spawner, not used)
    leaves the server a reset connection, not an end of stream: the server ends as at
    the end, with exit code 0 and not a word on the judge's stderr."""
    code = ("import select, socket\n"
            "from problemtools_py.sandbox.launch import start_server\n"
            "parent, child = socket.socketpair()\n"
            "proc = start_server(child, True)\n"
            "child.close()\n"
            "assert select.select([parent], [], [], 30)[0]\n"  # (the hello is there, unread)
            "parent.close()\n"
            "print(proc.wait(30))\n")  # fmt: skip
    done = run_python(code)
    assert (done.stdout, done.stderr) == ("0\n", "")


def test_a_descriptor_numbered_past_1024_is_waited_on(tmp_path: Path) -> None:
    """With many servers (``-j 512``) their pidfds pass 1024, where select() refuses a
    descriptor ("filedescriptor out of range", once exit 3 at the pool's close)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard <= 1500:
        pytest.skip("descriptors up to 1500 are not allowed here")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1501), hard))
    try:
        pid = os.posix_spawnp("sleep", ["sleep", "0.2"], os.environ)
        pidfd = os.pidfd_open(pid)
        os.dup2(pidfd, 1500)
        os.close(pidfd)
        server = SpawnedServer(pid, 1500)
        assert server.poll() is None
        assert server.wait(5.0) == -1 and server.pidfd == -1
        assert os.waitpid(pid, 0)[1] == 0  # (its maker's to collect: this test's)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
