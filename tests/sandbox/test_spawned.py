"""sandbox/spawned.py's sweep (and cgroups' remove_dead): what processes killed with no
spawner to clean up after them left, removed by the next server to start; never what a
running process uses."""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from problemtools_py.sandbox import spawned
from problemtools_py.sandbox.cgroups import Cgroups
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.results import Limits, SandboxError

LIMITS = Limits(cpu_seconds=1.0, memory_bytes=256 << 20, output_bytes=1 << 20)


def dead_pid() -> int:
    """The PID of a process that has ended (and been collected)."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    assert not spawned.running(proc.pid)
    return proc.pid


def test_a_dead_process_directories_go_and_a_running_ones_stay() -> None:
    tmp = Path(tempfile.gettempdir())
    dead = dead_pid()
    left = [Path(tempfile.mkdtemp(prefix=f"ptpy-{kind}-{dead}-")) for kind in spawned.KINDS]
    (left[0] / "jail" / "etc").mkdir(parents=True)  # (whatever they hold goes with them)
    mine = Path(spawned.temp_dir("cwd"))
    assert mine.name.startswith(f"ptpy-cwd-{os.getpid()}-")
    others = [Path(tempfile.mkdtemp(prefix=p)) for p in ("ptpy-cwd-x-", "ptpy-other-1-", "xptpy-")]
    try:
        spawned.sweep(None)
        assert not any(path.exists() for path in left)
        assert mine.is_dir() and all(path.is_dir() for path in others)
        # (this process's own, and only those: a grader this process keeps open, as
        # compute_score's, has its directories there too, whatever test made it)
        found = spawned.dirs_of(os.getpid())
        assert str(mine) in found and not {str(p) for p in [*left, *others]} & set(found)
        assert all(Path(d).name.split("-")[2] == str(os.getpid()) for d in found), found
        assert str(tmp) == str(mine.parent)
    finally:
        spawned.remove([str(mine), *map(str, others)])


def test_a_dead_server_groups_go_and_a_running_ones_stay(tmp_path: Path) -> None:
    """On plain directories laid out as a v1 base (groups ``ptpy-PID-N``) and a v2 one
    (``ptpy-PID`` holding its server leaf and its run groups)."""
    dead, alive = dead_pid(), os.getpid()
    v1, v2 = tmp_path / "memory", tmp_path / "unified"
    gone = [v1 / f"ptpy-{dead}-1", v1 / f"ptpy-{dead}-20", v2 / f"ptpy-{dead}"]
    kept = [v1 / f"ptpy-{alive}-1", v1 / "ptpy-x-1", v1 / f"other-{dead}-1", v2 / f"ptpy-{alive}"]
    for path in [*gone, *kept, v2 / f"ptpy-{dead}" / "server", v2 / f"ptpy-{dead}" / f"ptpy-{dead}-3"]:
        path.mkdir(parents=True)
    busy = v2 / f"ptpy-{alive}" / f"ptpy-{alive}-1"
    busy.mkdir()
    Cgroups({"memory": v1, "": v2}, False).remove_dead(spawned.running)
    assert not any(path.exists() for path in gone)
    assert all(path.is_dir() for path in [*kept, busy])


@pytest.mark.skipif(os.geteuid() != 0, reason="control groups need root")
def test_a_server_killed_mid_session_leaves_nothing_once_another_starts() -> None:
    """A judge's own server (no spawner reaps it) killed with a session open: its jails'
    directories and its run's control groups stay until the next server starts."""
    box = Sandbox()
    pid = box.proc.pid
    try:
        session = box.session(limits=LIMITS)
        session.__enter__()
        assert box.run(["true"], limits=LIMITS).ok
        dirs = spawned.dirs_of(pid)
        groups = list(Path("/sys/fs/cgroup").glob(f"**/ptpy-{pid}-*"))
        assert len(dirs) == 2
        assert groups or box.isolation != "full"
        box.proc.kill()
        box.proc.wait()
        assert all(Path(d).exists() for d in dirs)  # (nobody removed them)
        with contextlib.suppress(SandboxError):  # (its server is gone)
            session.__exit__(None, None, None)
    finally:
        box.close()
    deadline = time.monotonic() + 5
    while True:  # (the killed server's jail ends after it; its groups empty then)
        with Sandbox() as other:
            assert other.run(["true"], limits=LIMITS).ok
        if not any(path.exists() for path in groups) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not any(Path(d).exists() for d in dirs)
    assert not any(path.exists() for path in groups)
