"""Files that appear whole or not at all: written under a temporary name beside their
destination, then renamed over it (a reader never sees half a file, and a failure leaves
no temporary behind)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from problemtools_py.errors import FatalError
from problemtools_py.findings import ExitCode


def write_bytes(path: Path, data: bytes, mode: int = 0o644, parents: bool = False) -> None:
    """``data`` to ``path``; with ``parents``, the directories on the way made first."""
    _replace(path, lambda tmp: Path(tmp).write_bytes(data), mode, parents)


def copy_file(src: Path, dst: Path, mode: int = 0o644) -> None:
    _replace(dst, lambda tmp: shutil.copyfile(src, tmp), mode)


def _replace(path: Path, fill: Callable[[str], object], mode: int, parents: bool = False) -> None:
    import tempfile  # (here: a command that writes nothing, -p config, needs none of it)

    try:
        if parents:
            path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:  # (named by the file meant, not the temporary one)
        raise FatalError(
            f"cannot write: {exc.strerror or exc}", path=path, exit_code=ExitCode.FINDINGS
        ) from exc
    os.close(fd)
    try:
        fill(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename == tmp:  # (named by the file meant)
            raise FatalError(
                f"cannot write: {exc.strerror or exc}", path=path, exit_code=ExitCode.FINDINGS
            ) from exc
        raise
