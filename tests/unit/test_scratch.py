"""scratch.py: a run's files go to /dev/shm when it is a tmpfs with room to spare, else
(or when TMPDIR says where) to tempfile's place."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest

from problemtools_py import scratch

MOUNTS = """/dev/vda / ext4 rw,relatime 0 0
tmpfs /dev/shm tmpfs rw,nosuid,nodev 0 0
proc /proc proc rw 0 0
"""


@pytest.mark.parametrize(
    ("path", "mounts", "expected"),
    [
        ("/dev/shm", MOUNTS, "tmpfs"),
        ("/", MOUNTS, "ext4"),
        ("/tmp", MOUNTS, None),  # (no mount of its own)
        ("/dev/shm", MOUNTS + "/dev/vdb /dev/shm ext4 rw 0 0\n", "ext4"),  # the last one
        ("/dev/shm", "garbage\n\n", None),
    ],
)
def test_mount_type(path: str, mounts: str, expected: str | None) -> None:
    assert scratch.mount_type(path, mounts) == expected


@pytest.fixture
def shm_tmpfs(monkeypatch: pytest.MonkeyPatch) -> None:
    if not scratch._is_tmpfs(scratch.SHM) or not os.access(scratch.SHM, os.W_OK):
        pytest.skip("this machine has no writable tmpfs at /dev/shm")
    monkeypatch.delenv("TMPDIR", raising=False)


def test_a_scratch_directory_is_private_and_in_memory(shm_tmpfs: None) -> None:
    made = scratch.scratch_dir("ptpy-test-", need=1 << 20)
    try:
        assert made.parent == Path(scratch.SHM) and made.name.startswith("ptpy-test-")
        assert stat.S_IMODE(made.stat().st_mode) == 0o700
    finally:
        made.rmdir()


def test_more_than_the_tmpfs_can_spare_goes_to_disk(shm_tmpfs: None) -> None:
    free = os.statvfs(scratch.SHM).f_bavail * os.statvfs(scratch.SHM).f_frsize
    assert scratch.scratch_root(need=free) is None  # (free, but not SPARE beside it)
    assert scratch.scratch_root(need=0) == scratch.SHM


def test_tmpdir_is_the_users_choice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # (tempfile reads TMPDIR once)
    assert scratch.scratch_root() is None
    made = scratch.scratch_dir("ptpy-test-")
    assert made.parent == tmp_path
