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
    with Pending(path, mode, parents) as pending:
        os.close(pending.fd)
        fill(str(pending.tmp))


class Pending:
    """A file being written beside ``path`` under a temporary name (``tmp``, open as
    ``fd``): :meth:`commit` renames it over ``path`` (``mode`` set first), :meth:`discard`
    removes it; a ``with`` block commits at a clean end and discards otherwise. The one
    place this rule is written (a zip, a dataset's parquet file, gradecode's results, an
    upgraded package's files, any small file).

    ``beside``: the directory the temporary goes in, if not ``path``'s (one that exists
    now, on the same file system, while ``path``'s directory is made later). ``keep``:
    a commit that fails leaves the temporary where it is and says so, for what cannot be
    made again cheaply (hours of grading)."""

    def __init__(
        self,
        path: Path,
        mode: int = 0o644,
        parents: bool = False,
        suffix: str = "",
        beside: Path | None = None,
        keep: bool = False,
    ) -> None:
        import tempfile  # (here: a command that writes nothing, -p config, needs none of it)

        self.path, self.mode, self.keep = path, mode, keep
        try:
            if parents:
                path.parent.mkdir(parents=True, exist_ok=True)
            self.fd, tmp = tempfile.mkstemp(
                prefix=f".{path.name}.", suffix=suffix, dir=beside or path.parent
            )
        except OSError as exc:  # (named by the file meant, not the temporary one)
            raise _cannot(path, exc) from exc
        self.tmp = Path(tmp)

    def commit(self) -> None:
        try:
            os.chmod(self.tmp, self.mode)
            os.replace(self.tmp, self.path)
        except BaseException as exc:
            if self.keep and isinstance(exc, OSError):
                raise _cannot(self.path, exc, f"; everything is in {self.tmp}") from exc
            self.discard()
            if isinstance(exc, OSError) and exc.filename == str(self.tmp):
                raise _cannot(self.path, exc) from exc
            raise

    def discard(self) -> None:
        self.tmp.unlink(missing_ok=True)

    def __enter__(self) -> Pending:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: object
    ) -> None:
        if kind is None:
            self.commit()
            return
        self.discard()
        if isinstance(exc, OSError) and exc.filename == str(self.tmp):  # (the file meant)
            raise _cannot(self.path, exc) from exc


def _cannot(path: Path, exc: OSError, more: str = "") -> FatalError:
    why = f"cannot write: {exc.strerror or exc}{more}"
    return FatalError(why, path=path, exit_code=ExitCode.FINDINGS)
