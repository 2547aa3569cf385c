"""sandbox/identity.py: one user per sandbox. Issue 40: every sandbox ran as nobody, so
a program could read another sandbox's pending-signal count (SigQ) as a channel, and take
every inotify instance of the user from all the others. Here a writer and a reader in two
separate judge processes, as the attack ran, and the lease's rules."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.processes import stray_processes

from problemtools_py.sandbox import identity
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.results import Limits

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="users are switched as root only")
LIMITS = Limits(cpu_seconds=20.0, memory_bytes=256 << 20, output_bytes=1 << 20)
QUEUED = 40

# Queues 40 real-time signals to itself (blocked, so they stay pending: counted in SigQ
# of its user), takes every inotify instance its user may have, says so, and holds both
# until the test is done.
WRITER = f"""import ctypes, os, signal, time
signal.pthread_sigmask(signal.SIG_BLOCK, {{signal.SIGRTMIN}})
for _ in range({QUEUED}):
    os.kill(os.getpid(), signal.SIGRTMIN)
libc = ctypes.CDLL(None, use_errno=True)
held = 0
while libc.inotify_init1(0) >= 0:
    held += 1
open('/sync/ready', 'w').write(str(held))
for _ in range(600):
    if os.path.exists('/sync/done'):
        break
    time.sleep(0.05)
"""

READER = """import ctypes
status = dict(l.split(':', 1) for l in open('/proc/self/status') if ':' in l)
libc = ctypes.CDLL(None, use_errno=True)
print(status['SigQ'].split('/')[0].strip(), libc.inotify_init1(0) >= 0)
"""

# A second judge process: its own Sandbox, running the writer.
JUDGE = """import sys
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits
with Sandbox() as box:
    print(box.user[0], flush=True)
    result = box.run(["python3", "/sync/writer.py"], binds=[Bind(sys.argv[1], "/sync", True)],
                     limits=Limits(cpu_seconds=20.0, memory_bytes=256 << 20, output_bytes=1 << 20))
    print(result.outcome.name, result.stderr.decode()[-300:], flush=True)
"""


def test_no_counter_of_one_sandbox_user_is_seen_from_another_judge(tmp_path: Path) -> None:
    sync = tmp_path / "sync"
    sync.mkdir(mode=0o777)
    sync.chmod(0o777)
    (sync / "writer.py").write_text(WRITER)
    writer = subprocess.Popen([sys.executable, "-c", JUDGE, str(sync)], stdout=subprocess.PIPE,
                              text=True)  # fmt: skip
    try:
        assert writer.stdout is not None
        writer_uid = int(writer.stdout.readline())
        for _ in range(600):
            if (sync / "ready").exists():
                break
            time.sleep(0.05)
        assert (sync / "ready").exists(), "the writer never got ready"
        assert int((sync / "ready").read_text()) >= 64  # it holds its user's instances
        with Sandbox() as box:
            assert box.user[0] != writer_uid
            read = box.run(["python3", "-c", READER], limits=LIMITS)
        (sync / "done").write_text("")
        said = writer.communicate(timeout=60)[0]
    finally:
        (sync / "done").write_text("")
        writer.kill()
        writer.wait()
    assert said.split()[0] == "OK", said
    assert read.ok, read.stderr
    assert read.stdout.decode().split() == ["0", "True"]  # nothing of the writer's
    assert stray_processes() == []


def test_sandboxes_at_once_have_distinct_users_and_leases_end_with_them() -> None:
    with Sandbox() as a, Sandbox() as b:
        assert a.user != b.user
        assert all(identity.FIRST_UID <= u < identity.FIRST_UID + identity.SLOTS for u in a.user)
        assert identity.in_use(a.user[0]) and identity.in_use(b.user[0])
        held = a.user[0]
    assert not identity.in_use(held)  # its server and inits are gone: the slot is free


def test_a_pool_gives_each_server_its_own_user() -> None:
    """Spawned servers (forked from one that probed) each lease a user; the spawner,
    which runs nothing, holds none."""
    from problemtools_py.sandbox.pool import SandboxPool

    users = set()
    with SandboxPool(3) as pool, contextlib.ExitStack() as stack:
        for box in [stack.enter_context(pool.sandbox()) for _ in range(3)]:
            result = box.run(["id", "-u"], limits=LIMITS)
            users.add((box.user[0], int(result.stdout)))
    assert len(users) == 3 and all(a == b for a, b in users)


def test_a_lease_dir_anyone_else_may_change_is_refused(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "uids"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setattr(identity, "LEASE_DIR", str(shared))
    monkeypatch.setattr(identity, "_held", [])
    with pytest.raises(OSError, match="not a directory only root may change"):
        identity.acquire()


def test_a_jail_init_holds_its_servers_lease(tmp_path: Path) -> None:
    """Not only the server: a jail's init keeps the slot taken while it lives, so no new
    server is given the user of programs that may still be running."""
    import glob

    from problemtools_py.sandbox.protocol import Bind

    tmp_path.chmod(0o755)
    with Sandbox() as box, box.session(limits=LIMITS, binds=[Bind(str(tmp_path), "/prog")]):
        lease = f"{identity.LEASE_DIR}/{box.user[0] - identity.FIRST_UID}"
        holders = set()
        for fd in glob.glob("/proc/[0-9]*/fd/*"):
            with contextlib.suppress(OSError):
                if os.readlink(fd) == lease:
                    holders.add(fd.split("/")[2])
    assert len(holders) >= 2, holders  # the server and the jail's init
