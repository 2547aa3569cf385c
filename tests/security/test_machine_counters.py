"""Trust boundary: one sandbox and every other on the machine (docs/security.md). A
program must not move a machine-wide kernel counter that another jail can read (a
channel between completions graded side by side, even by other grader processes) or
take a machine-wide resource whole: kernel AIO contexts (``/proc/sys/fs/aio-nr`` counts
every one, ``aio-max-nr`` bounds them all) are denied, and /proc/sys and /proc/loadavg are
hidden."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="full isolation needs root")
LIMITS = Limits(cpu_seconds=5.0, memory_bytes=512 << 20, output_bytes=1 << 20)

# The writer of the issue: as many AIO contexts as the machine allows, and what the
# counters show from inside.
PROBE = """import ctypes, os, platform
libc = ctypes.CDLL(None, use_errno=True)
io_setup = 206 if platform.machine() == "x86_64" else 0
taken = 0
for _ in range(4096):
    ctx = ctypes.c_ulong(0)
    if libc.syscall(io_setup, 16, ctypes.byref(ctx)) != 0:
        print("io_setup", ctypes.get_errno())
        break
    taken += 1
print("taken", taken)
for path in ("/proc/sys/fs/aio-nr", "/proc/sys/fs/file-nr", "/proc/sys/kernel/random/boot_id",
             "/proc/loadavg", "/proc/vmstat", "/proc/interrupts", "/proc/sysvipc/shm"):
    try:
        with open(path) as f:
            print(path, "read", repr(f.read()))
    except OSError as exc:
        print(path, "refused", exc.errno)
"""


@needs_root
def test_aio_is_denied_and_machine_counters_are_hidden(tmp_path: Path) -> None:
    (tmp_path / "probe.py").write_text(PROBE)
    tmp_path.chmod(0o755)
    before = int(Path("/proc/sys/fs/aio-nr").read_text())
    with Sandbox() as box:
        result = box.run(["python3", "/prog/probe.py"], limits=LIMITS,
                         binds=[Bind(str(tmp_path), "/prog")])  # fmt: skip
    assert result.ok, result.stderr
    lines = result.stdout.decode().splitlines()
    assert lines[:2] == [f"io_setup {errno.EPERM}", "taken 0"], lines
    for line in lines[2:]:  # (an empty file or none at all: nothing of the machine's)
        assert " refused " in line or line.endswith("read ''"), line
    assert int(Path("/proc/sys/fs/aio-nr").read_text()) <= before


@needs_root
def test_programs_that_read_proc_still_run(tmp_path: Path) -> None:
    """What runtimes read of /proc (their own status, the CPUs, memory) is still there."""
    (tmp_path / "t.py").write_text(
        "import os\n"
        "print(os.cpu_count() > 0, open('/proc/self/status').read().startswith('Name:'),\n"
        "      'MemTotal' in open('/proc/meminfo').read())\n"
    )
    tmp_path.chmod(0o755)
    with Sandbox() as box:
        result = box.run(["python3", "/prog/t.py"], limits=LIMITS,
                         binds=[Bind(str(tmp_path), "/prog")])  # fmt: skip
    assert result.ok and result.stdout == b"True True True\n", result.stderr
