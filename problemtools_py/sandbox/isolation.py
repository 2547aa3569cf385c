"""Isolation set up by the sandbox server's jail processes (as root): namespaces and a
private root file system with only what a program needs. Linux system calls through
ctypes. (What each program's own process does — limits, the drop to the sandbox user —
is in :mod:`inside`.)"""

from __future__ import annotations

import os

from problemtools_py.sandbox import identity, pystart
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.records import NamedTuple
from problemtools_py.sandbox.syscalls import (
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    MS_REMOUNT,
    mount,
)

SYSTEM_DIRS = ("usr", "etc")
SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
DEVICES = ("null", "zero", "full", "random", "urandom")
HIDDEN_FLAGS = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC


class RootSpec(NamedTuple):
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


def _hide_site_packages(root: str) -> None:
    """An empty, read-only file system on each site-packages directory of the sandbox's
    python3 in the system directories: ``python3 prog.py`` there puts them on its path as
    on the host, and finds the standard library only (the machine's Python packages are
    not part of a judge's language; see docs/judging.md)."""
    for path in pystart.site_dirs():
        if path.startswith(tuple(f"/{name}/" for name in SYSTEM_DIRS)):
            mount("tmpfs", root + path, "tmpfs", HIDDEN_FLAGS, "size=4k,nr_inodes=1,mode=755")


# What of /proc is the whole machine's, not the jail's, and no contest program needs
# (counters one jail could move and another read; docs/security.md lists them all):
# /proc/sys (every sysctl: fs/aio-nr, fs/file-nr, fs/inode-nr, kernel/random/boot_id and
# uuid, kernel/pid_max, ...), System V IPC's tables, the machine's load, and its memory,
# interrupt, disk, lock and key accounting. What runtimes read (meminfo, stat, cpuinfo,
# uptime, the process's own files) stays.
HIDDEN_PROC_DIRS = ("sys", "sysvipc")
HIDDEN_PROC_FILES = ("loadavg", "vmstat", "zoneinfo", "buddyinfo", "pagetypeinfo",
                     "interrupts", "softirqs", "diskstats", "schedstat", "locks",
                     "key-users")  # fmt: skip


def _hide_machine_counters(root: str) -> None:
    for name in HIDDEN_PROC_DIRS:
        if not os.path.isdir(f"{root}/proc/{name}"):
            continue
        mount("tmpfs", f"{root}/proc/{name}", "tmpfs", HIDDEN_FLAGS, "size=4k,nr_inodes=1,mode=555")
    for name in HIDDEN_PROC_FILES:  # (a device node on a nodev mount: never opened)
        if not os.path.exists(f"{root}/proc/{name}"):
            continue
        mount("/dev/null", f"{root}/proc/{name}", None, MS_BIND)
        mount(None, f"{root}/proc/{name}", None, MS_BIND | MS_REMOUNT | HIDDEN_FLAGS)


def build_root(spec: RootSpec) -> None:
    """Mount a private root at ``spec.root`` and chroot into it. Must run in a new mount
    and PID namespace (for /proc) as root."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    root = spec.root
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, f"size={spec.size_bytes},mode=755")
    for name in SYSTEM_DIRS:
        if os.path.isdir("/" + name):
            _bind("/" + name, f"{root}/{name}", False)
    _hide_site_packages(root)
    for name in SYSTEM_LINKS:
        host = "/" + name
        if os.path.islink(host):
            os.symlink(os.readlink(host), f"{root}/{name}")
        elif os.path.isdir(host):
            _bind(host, f"{root}/{name}", False)
    os.makedirs(f"{root}/dev/shm")  # a scratch directory: see inside.scratch_dirs
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
    mount("proc", f"{root}/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    _hide_machine_counters(root)
    os.makedirs(f"{root}/tmp", mode=0o1777)
    os.chmod(f"{root}/tmp", 0o1777)
    for bind in spec.binds:
        _bind(bind.source, root + bind.target, bind.writable)
    cwd = root + spec.cwd
    if not os.path.isdir(cwd):
        os.makedirs(cwd)
        os.chown(cwd, *identity.ids())
    os.chroot(root)
    os.chdir(spec.cwd)
