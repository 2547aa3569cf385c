"""Isolation set up by the sandbox server's jail processes (as root): namespaces and a
private root file system with only what a program needs. Linux system calls through
ctypes. (What each program's own process does — limits, the drop to the sandbox user —
is in :mod:`inside`.)"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass

from problemtools_py.sandbox.protocol import SANDBOX_GID, SANDBOX_UID, Bind

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38

SYSTEM_DIRS = ("usr", "etc")
SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
DEVICES = ("null", "zero", "full", "random", "urandom")

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def unshare(flags: int) -> None:
    _check(_libc.unshare(ctypes.c_int(flags)), "unshare")


def prctl(option: int, value: int) -> None:
    _check(
        _libc.prctl(
            ctypes.c_int(option),
            ctypes.c_ulong(value),
            ctypes.c_ulong(0),
            ctypes.c_ulong(0),
            ctypes.c_ulong(0),
        ),
        "prctl",
    )


def mount(
    source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None
) -> None:
    def enc(s: str | None) -> bytes | None:
        return s.encode() if s is not None else None

    _check(
        _libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
        f"mount {target}",
    )


@dataclass(frozen=True)
class RootSpec:
    """The file system a sandboxed program sees."""

    root: str  # an empty host directory the private root is mounted on
    cwd: str  # working directory inside the sandbox
    binds: tuple[Bind, ...] = ()
    size_bytes: int = 64 << 20  # tmpfs for /tmp and the working directory


def _bind(source: str, target: str, writable: bool, devices: bool = False) -> None:
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
    mount(source, target, None, MS_BIND | MS_REC)
    flags = (
        MS_BIND
        | MS_REMOUNT
        | MS_NOSUID
        | (0 if devices else MS_NODEV)
        | (0 if writable else MS_RDONLY)
    )
    mount(None, target, None, flags)


def build_root(spec: RootSpec) -> None:
    """Mount a private root at ``spec.root`` and chroot into it. Must run in a new mount
    and PID namespace (for /proc) as root."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    root = spec.root
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, f"size={spec.size_bytes},mode=755")
    for name in SYSTEM_DIRS:
        if os.path.isdir("/" + name):
            _bind("/" + name, f"{root}/{name}", False)
    for name in SYSTEM_LINKS:
        host = "/" + name
        if os.path.islink(host):
            os.symlink(os.readlink(host), f"{root}/{name}")
        elif os.path.isdir(host):
            _bind(host, f"{root}/{name}", False)
    os.makedirs(f"{root}/dev")
    for device in DEVICES:
        if os.path.exists(f"/dev/{device}"):
            _bind(f"/dev/{device}", f"{root}/dev/{device}", True, devices=True)
    for name, target in (
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ):
        os.symlink(target, f"{root}/dev/{name}")
    os.makedirs(f"{root}/proc")
    mount("proc", f"{root}/proc", "proc", MS_NOSUID | MS_NODEV | 8)  # 8: MS_NOEXEC
    os.makedirs(f"{root}/tmp", mode=0o1777)
    os.chmod(f"{root}/tmp", 0o1777)
    for bind in spec.binds:
        _bind(bind.source, root + bind.target, bind.writable)
    cwd = root + spec.cwd
    if not os.path.isdir(cwd):
        os.makedirs(cwd)
        os.chown(cwd, SANDBOX_UID, SANDBOX_GID)
    os.chroot(root)
    os.chdir(spec.cwd)
