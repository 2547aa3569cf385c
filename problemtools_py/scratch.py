"""Where the judge keeps a run's files (a program's output, a validator's feedback
directory, the inputs it tries): a verification makes and deletes a few per run, and on
ext4 each new inode costs the judge's own CPU (``find_inode_bit``/``recently_deleted``:
9% of the judge process's samples on a 700-run verification, perf). So they go to
``/dev/shm``, a tmpfs, when it has room for them with plenty to spare; else, or when
``TMPDIR`` names a place (the user's choice), where tempfile puts them."""

from __future__ import annotations

import os
import tempfile
from functools import cache
from pathlib import Path

SHM = "/dev/shm"
SPARE = 1 << 30  # the memory scratch files must leave free, at the worst


def scratch_dir(prefix: str, need: int = 0) -> Path:
    """A new private (0700) directory for at most ``need`` bytes of files at once."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=scratch_root(need)))


def readable_files(directory: str, blobs: list[bytes], stem: str, suffix: str = "") -> list[Path]:
    """Each of ``blobs`` as a file in ``directory`` (``<stem><index><suffix>``), readable
    by the jails (the inputs and outputs a validator is tried on)."""
    paths = []
    for index, data in enumerate(blobs):
        path = Path(directory) / f"{stem}{index}{suffix}"
        path.write_bytes(data)
        path.chmod(0o644)
        paths.append(path)
    return paths


def scratch_root(need: int = 0) -> str | None:
    """``/dev/shm`` when it is a writable tmpfs with ``need`` bytes and SPARE more free,
    else None (tempfile's own choice)."""
    if "TMPDIR" in os.environ or not _is_tmpfs(SHM):
        return None
    try:
        stat = os.statvfs(SHM)
    except OSError:
        return None
    free = stat.f_bavail * stat.f_frsize
    usable = os.access(SHM, os.W_OK | os.X_OK)
    return SHM if usable and free >= need + SPARE else None


@cache
def _is_tmpfs(path: str) -> bool:
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as mounts:
            return mount_type(path, mounts.read()) == "tmpfs"
    except OSError:
        return False


def mount_type(path: str, mounts: str) -> str | None:
    """The file system type mounted at ``path`` by a /proc/self/mounts text (the last
    mount there: it hides the ones before), or None when nothing is."""
    kind = None
    for line in mounts.splitlines():
        fields = line.split()
        if len(fields) > 2 and fields[1] == path:
            kind = fields[2]
    return kind
