"""A run's processes and threads are all in its control groups, however it was started
(the file a child joins by differs between cgroup v1 and v2)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from problemtools_py.sandbox.cgroups import RunGroup
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits

LIMITS = Limits(cpu_seconds=2.0, memory_bytes=256 << 20, output_bytes=1 << 20)

# Prints the groups the sandbox uses (v1: memory, pids and cpuacct's; else v2's one) of
# the program's main thread, of a thread it starts, and of a child that thread forks.
WHERE = r"""
import os, re, threading
def lines(path):
    found = [l.split(':', 2)[1:] for l in open(path).read().splitlines()]
    v1 = [c + '=' + p for c, p in found if re.fullmatch(r'(\w+,)*(memory|pids|cpuacct)(,\w+)*', c)]
    return sorted(v1) or ['=' + p for c, p in found if c == '']
seen = {'main': lines('/proc/self/cgroup')}
def thread():
    seen['thread'] = lines('/proc/thread-self/cgroup')
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(w, repr(lines('/proc/self/cgroup')).encode()); os._exit(0)
    os.close(w); seen['child'] = eval(os.read(r, 4096)); os.waitpid(pid, 0)
t = threading.Thread(target=thread); t.start(); t.join()
print(repr(seen))
"""


def test_v1_joins_by_tasks_and_v2_by_cgroup_procs() -> None:
    v1 = RunGroup({c: Path(f"/cg/{c}/run") for c in ("memory", "pids", "cpuacct")}, False)
    v2 = RunGroup({"": Path("/cg/run")}, True)
    assert v1.join_paths() == [f"/cg/{c}/run/tasks" for c in ("memory", "pids", "cpuacct")]
    assert v2.join_paths() == ["/cg/run/cgroup.procs"]


@pytest.mark.parametrize("mode", ["exec", "session", "in-process", "lean"])
def test_every_process_and_thread_of_a_run_is_in_its_groups(
    full_box: Sandbox, tmp_path: Path, mode: str
) -> None:
    if mode == "lean" and not full_box.python_matches():
        pytest.skip("a lean session needs the same Python inside")
    tmp_path.chmod(0o755)
    (tmp_path / "where.py").write_text(WHERE)
    binds = [Bind(str(tmp_path), "/prog")]
    argv = ["python3", "-S", "/prog/where.py"]
    if mode == "exec":
        result = full_box.run(argv, limits=LIMITS, binds=binds)
    else:
        inprocess = mode != "session"
        with full_box.session(limits=LIMITS, binds=binds, inprocess=inprocess, lean=mode == "lean"):
            if mode == "lean":
                fd = os.memfd_create("stdin")
                try:
                    result = full_box.run_lean(argv, limits=LIMITS, stdin=fd, inprocess=argv[2])
                finally:
                    os.close(fd)
            else:
                result = full_box.run(argv, limits=LIMITS)
    assert result.ok, result
    seen = eval(result.stdout)  # (our own program's repr of lists of strings)
    assert seen["main"] == seen["thread"] == seen["child"]
    assert seen["main"] and all(re.search(r"/ptpy-\d+-\d+", line) for line in seen["main"])
    mine = Path("/proc/self/cgroup").read_text()
    assert not any(line.split("=", 1)[1] in mine.split() for line in seen["main"])
