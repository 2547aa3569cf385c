"""The one way the judge touches what a jailed program could have written: a validator's
feedback files and its ``nextpass.in``, a generator's or visualizer's files, the files a
``/run_code`` run leaves, a build directory's files.

Such a file is named by a directory the judge made and trusts (``root``) and a relative
name below it. Each component is opened from the one before it with ``O_NOFOLLOW`` (a
symbolic link at any step is refused, never followed), ``..`` and empty steps are refused,
the last step must be a regular file (a FIFO, a device or a directory is refused, and it is
opened non-blocking so that a FIFO cannot hang the judge), and what is read is bounded.
Content is copied, never a name moved: a link moved into the judge's own directories would
be followed by whatever opens it next. ``tests/unit/security/test_jailfiles_only.py`` keeps
this the only module that opens such paths."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
LISTING_CAP = 10_000  # entries of a directory looked at (a program may make millions)
CHUNK = 1 << 20


class Refused(OSError):
    """The path is not a regular file reached through real directories, or is too big."""


def _steps(name: str) -> list[str]:
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise Refused(f"not a plain relative name: {name!r}")
    return parts


def _parent(root: Path | str, parts: list[str]) -> int:
    """A descriptor of the directory holding ``parts[-1]``, reached from ``root`` through
    real directories only."""
    fd = os.open(root, _DIR)
    try:
        for part in parts[:-1]:
            new = os.open(part, _DIR, dir_fd=fd)
            os.close(fd)
            fd = new
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def _opened(root: Path | str, name: str) -> Iterator[int]:
    """A descriptor of the regular file ``name`` below ``root`` (see the module's text)."""
    parts = _steps(name)
    parent = _parent(root, parts)
    try:
        fd = os.open(parts[-1], _FILE, dir_fd=parent)
    finally:
        os.close(parent)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(f"{name} is not a regular file")
        yield fd
    finally:
        os.close(fd)


def present(root: Path | str, name: str) -> bool:
    """Whether anything (a file, a link, a FIFO...) stands at ``name`` below ``root``."""
    try:
        parts = _steps(name)
        parent = _parent(root, parts)
    except OSError:
        return False
    try:
        os.stat(parts[-1], dir_fd=parent, follow_symlinks=False)
        return True
    except OSError:
        return False
    finally:
        os.close(parent)


def read(root: Path | str, name: str, cap: int) -> bytes | None:
    """The bytes of the regular file ``name`` below ``root`` when it has at most ``cap``;
    else (a link at any step, not a regular file, too big, absent) None."""
    try:
        with _opened(root, name) as fd:
            data = _bounded(fd, cap)
    except OSError:
        return None
    return data


def read_text(root: Path | str, name: str, cap: int) -> str | None:
    """:func:`read`, decoded as UTF-8 (bad bytes replaced)."""
    data = read(root, name, cap)
    return None if data is None else data.decode("utf-8", "replace")


def _bounded(fd: int, cap: int) -> bytes:
    if os.fstat(fd).st_size > cap:
        raise Refused(f"larger than {cap} bytes")
    chunks, size = [], 0
    while chunk := os.read(fd, min(CHUNK, cap + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > cap:  # (it grew after the stat: a program still writing)
            raise Refused(f"larger than {cap} bytes")
    return b"".join(chunks)


def _create(path: Path) -> int:
    """A new file at ``path``: whatever stood under that name (a link a program left, a
    directory) removed first, never followed."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        shutil.rmtree(path)  # (fd-based: it follows no link, see avoids_symlink_attacks)
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)


def write_new(path: Path, data: bytes) -> None:
    """Write a judge file into a directory a program could write to (see :func:`_create`)."""
    with os.fdopen(_create(path), "wb") as handle:
        handle.write(data)


def regular_files(root: Path | str, cap: int = LISTING_CAP) -> list[str]:
    """The names of the regular files directly below ``root`` (links, directories and the
    rest left out), sorted; at most ``cap`` entries of the directory are looked at."""
    found: list[str] = []
    try:
        fd = os.open(root, _DIR)
    except OSError:
        return found
    try:
        with os.scandir(fd) as entries:
            for count, entry in enumerate(entries):
                if count >= cap:
                    break
                if entry.is_file(follow_symlinks=False):
                    found.append(entry.name)
    finally:
        os.close(fd)
    return sorted(found)


def remove(root: Path | str, name: str) -> None:
    """Remove whatever stands at ``name`` below ``root`` (a file, a link, a directory
    tree), following no link on the way."""
    parts = _steps(name)
    parent = _parent(root, parts)
    try:
        os.unlink(parts[-1], dir_fd=parent)
    except IsADirectoryError:
        shutil.rmtree(parts[-1], dir_fd=parent)
    except FileNotFoundError:
        pass
    finally:
        os.close(parent)


def remove_tree(path: Path) -> None:
    """Remove a directory a program wrote into, following none of its links."""
    assert shutil.rmtree.avoids_symlink_attacks
    if os.path.islink(path):
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)
