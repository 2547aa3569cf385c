"""sandbox/seccomp.py: the filter, read by a small BPF interpreter here (every denied call,
every architecture, clone's flags), checked against the kernel's own syscall tables when
their headers are installed, and enforced for real on programs in the sandbox."""

from __future__ import annotations

import errno
import os
import re
import struct
from pathlib import Path

import pytest

from problemtools_py.sandbox import seccomp
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.results import Limits

ROOT = os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="full isolation needs root")
LIMITS = Limits(cpu_seconds=5.0, memory_bytes=512 << 20, output_bytes=1 << 20)
ALLOW, EPERM, ENOSYS = 0x7FFF0000, 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
EAFNOSUPPORT = 0x00050000 | errno.EAFNOSUPPORT
CLONE_NEWUSER, SIGCHLD, CLONE_THREAD_FLAGS = 0x10000000, 17, 0x003D0F00


def evaluate(program: bytes, arch: int, nr: int, arg0: int = 0) -> int:
    """Run a classic-BPF seccomp program on one system call (the five opcodes it uses)."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, arg0, 0, 0, 0, 0, 0)
    code = [struct.unpack("=HBBI", program[i:i + 8]) for i in range(0, len(program), 8)]
    pc, acc = 0, 0
    while True:
        op, jt, jf, k = code[pc]
        if op == 0x20:
            acc = struct.unpack_from("=I", data, k)[0]
            pc += 1
        elif op in (0x15, 0x35, 0x45):
            hit = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[op]
            pc += 1 + (jt if hit else jf)
        elif op == 0x06:
            return k
        else:
            raise AssertionError(f"unknown opcode {op:#x}")


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_every_denied_call_and_nothing_else(machine: str) -> None:
    program = seccomp.build_filter(machine)
    assert program is not None
    column, arch = seccomp.ARCHES[machine]
    denied = {nrs[column] for nrs in seccomp.DENIED.values() if nrs[column] is not None}
    sockets = {numbers[column] for numbers in seccomp.SOCKET_CALLS}
    for nr in range(1000):
        want = (EPERM if nr in denied else ENOSYS if nr == seccomp.CLONE3[column]
                else ENOSYS if nr >= seccomp.FIRST_UNKNOWN else ALLOW)  # fmt: skip
        assert evaluate(program, arch, nr, 1 if nr in sockets else 0) == want, nr
    assert evaluate(program, arch, -1) == (EPERM if machine == "x86_64" else ENOSYS)  # 2**32 - 1
    for call in sockets:  # AF_UNIX, AF_INET, AF_INET6, AF_NETLINK; AF_VSOCK and the rest not
        for family in range(64):
            want = ALLOW if family in (1, 2, 10, 16) else EAFNOSUPPORT
            assert evaluate(program, arch, call, family) == want, (call, family)
    clone = seccomp.CLONE[column]
    assert evaluate(program, arch, clone, SIGCHLD) == ALLOW  # fork
    assert evaluate(program, arch, clone, CLONE_THREAD_FLAGS) == ALLOW  # a thread
    assert evaluate(program, arch, clone, CLONE_NEWUSER | SIGCHLD) == EPERM
    # (0 is read on x86_64, io_setup on aarch64: kernel AIO is denied)
    assert evaluate(program, arch, 0, 0) == (ALLOW if machine == "x86_64" else EPERM)
    assert evaluate(program, 0x40000003, 0) == EPERM  # i386 calls
    if machine == "x86_64":
        assert evaluate(program, arch, 0x40000000 | 1) == EPERM  # x32 calls


def test_an_unknown_architecture_gets_no_filter() -> None:
    assert seccomp.build_filter("riscv64") is None


@pytest.mark.parametrize(("machine", "header"), [
    ("x86_64", "/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    ("aarch64", "/usr/include/asm-generic/unistd.h"),
])
def test_numbers_match_the_kernel_headers(machine: str, header: str) -> None:
    if not Path(header).is_file():
        pytest.skip(f"{header} is not installed")
    table = dict(re.findall(r"#define __NR_(\w+)\s+(\d+)\s*$", Path(header).read_text(), re.M))
    column = seccomp.ARCHES[machine][0]
    known = {**seccomp.DENIED, "clone": seccomp.CLONE, "clone3": seccomp.CLONE3,
             "socket": seccomp.SOCKET_CALLS[0], "socketpair": seccomp.SOCKET_CALLS[1]}
    if "statmount" in table:
        assert int(table["statmount"]) == seccomp.FIRST_UNKNOWN
    for name, numbers in known.items():
        expected = int(table[name]) if name in table else None
        assert numbers[column] == expected, name


# Each denied call, made for real by a program in the sandbox: errno, one line per call.
PROBE = """import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
for name, nr in {calls!r}.items():
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(nr), *([ctypes.c_long(0)] * 6))
    print(name, result, ctypes.get_errno())
ctypes.set_errno(0)
print("mount", libc.mount(b"none", b"/tmp", b"tmpfs", 0, None), ctypes.get_errno())
"""


@needs_root
def test_denied_calls_fail_with_eperm_in_the_sandbox(tmp_path: Path) -> None:
    column = seccomp.ARCHES[os.uname().machine][0]
    calls = {name: nrs[column] for name, nrs in seccomp.DENIED.items() if nrs[column] is not None}
    calls |= {"clone3": seccomp.CLONE3[column]}
    (tmp_path / "probe.py").write_text(PROBE.format(calls=calls))
    tmp_path.chmod(0o755)
    from problemtools_py.sandbox.protocol import Bind

    with Sandbox() as box:
        result = box.run(["python3", "/prog/probe.py"], limits=LIMITS,
                         binds=[Bind(str(tmp_path), "/prog")])
    assert result.ok, result.stderr
    seen = {name: (int(r), int(e)) for name, r, e in
            (line.split() for line in result.stdout.decode().splitlines())}
    assert seen.pop("clone3") == (-1, errno.ENOSYS)
    assert seen.pop("mount") == (-1, errno.EPERM)  # no CAP_SYS_ADMIN, no way to get it
    assert seen == {name: (-1, errno.EPERM) for name in calls if name != "clone3"}


@needs_root
def test_toolchains_and_threads_keep_working(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    (tmp_path / "t.py").write_text(
        "import threading, subprocess, multiprocessing.pool\n"
        "t = threading.Thread(target=print, args=('thread',)); t.start(); t.join()\n"
        "print(subprocess.run(['sh', '-c', 'echo child'], capture_output=True, text=True).stdout.strip())\n"
        "with multiprocessing.pool.ThreadPool(4) as p: print(sum(p.map(abs, range(-5, 5))))\n")
    from problemtools_py.sandbox.protocol import Bind

    with Sandbox() as box:
        result = box.run(["python3", "/prog/t.py"], limits=LIMITS, binds=[Bind(str(tmp_path), "/prog")])
    assert result.ok and result.stdout == b"thread\nchild\n25\n", result.stderr


NEWER = """import ctypes, socket
libc = ctypes.CDLL(None, use_errno=True)
for name, nr in {"statmount": 457, "listmount": 458, "open_tree_attr": 467, "far": 1000}.items():
    ctypes.set_errno(0)
    print(name, libc.syscall(ctypes.c_long(nr), *([ctypes.c_long(0)] * 6)), ctypes.get_errno())
for family in ("AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK", "AF_VSOCK", "AF_PACKET", "AF_ALG"):
    try:
        socket.socket(getattr(socket, family), socket.SOCK_DGRAM if family != "AF_ALG"
                      else socket.SOCK_SEQPACKET).close()
        print(family, "made")
    except OSError as exc:
        print(family, exc.errno)
"""


@needs_root
def test_calls_newer_than_the_filter_and_other_families_are_refused(tmp_path: Path) -> None:
    """Issue 40: statmount, listmount and open_tree_attr passed a pure deny-list, and a
    vsock socket ignores the jail's network namespace."""
    (tmp_path / "newer.py").write_text(NEWER)
    tmp_path.chmod(0o755)
    from problemtools_py.sandbox.protocol import Bind

    with Sandbox() as box:
        result = box.run(["python3", "/prog/newer.py"], limits=LIMITS,
                         binds=[Bind(str(tmp_path), "/prog")])
    assert result.ok, result.stderr
    seen = dict(line.split(" ", 1) for line in result.stdout.decode().splitlines())
    assert seen == {"statmount": f"-1 {errno.ENOSYS}", "listmount": f"-1 {errno.ENOSYS}",
                    "open_tree_attr": f"-1 {errno.ENOSYS}", "far": f"-1 {errno.ENOSYS}",
                    "AF_UNIX": "made", "AF_INET": "made", "AF_INET6": "made", "AF_NETLINK": "made",
                    "AF_VSOCK": str(errno.EAFNOSUPPORT), "AF_PACKET": str(errno.EAFNOSUPPORT),
                    "AF_ALG": str(errno.EAFNOSUPPORT)}  # fmt: skip
