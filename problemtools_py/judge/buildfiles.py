"""The files of a build: the bounded scratch it is made in, what is copied out of it (plain
files only), the judge's own files written into it, and its publication (readable by the
sandbox user)."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from problemtools_py.sandbox import syscalls


@contextmanager
def bounded_dir(path: Path, size: int) -> Iterator[bool]:
    """Run a build in ``path`` with a tmpfs of ``size`` bytes mounted over it (as root),
    so that a compiler or build script cannot fill the disk with many files (the file
    size limit bounds one file only). Yields whether it is mounted."""
    if os.geteuid() != 0:
        yield False
        return
    flags = syscalls.MS_NOSUID | syscalls.MS_NODEV
    syscalls.mount("tmpfs", str(path), "tmpfs", flags, f"size={size},nr_inodes=65536,mode=755")
    try:
        yield True
    finally:
        syscalls.umount(str(path))


def copy_plain(source: Path, target: Path) -> None:
    """Copy the directories, regular files and symbolic links below ``source`` (never a
    FIFO or a device a build left behind, never through a link) into ``target``."""
    for top, dirs, files in os.walk(source, followlinks=False):
        into = target / Path(top).relative_to(source)
        for name in dirs + files:
            path, dest = Path(top) / name, into / name
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                os.symlink(os.readlink(path), dest)
            elif stat.S_ISDIR(mode):
                dest.mkdir(mode=0o755)
            elif stat.S_ISREG(mode):
                shutil.copyfile(path, dest, follow_symlinks=False)
                dest.chmod(stat.S_IMODE(mode) & 0o777)


def tree(root: Path) -> list[Path]:
    """Every entry below ``root`` (symlinks listed, never followed)."""
    paths = [root]
    for top, dirs, files in os.walk(root, followlinks=False):
        paths.extend(Path(top) / name for name in dirs + files)
    return paths


def publish(work: Path) -> None:
    """Make a build readable (and its programs runnable) by everyone, the sandbox user too."""
    for path in tree(work):
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        path.chmod(mode | 0o555 if path.is_dir() or mode & 0o111 else mode | 0o444)
