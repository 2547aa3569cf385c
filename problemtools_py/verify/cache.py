"""Verdicts of deterministic runs (validators on inputs), kept by content hash in the
user's cache directory: safe under concurrent use (write to a temporary file, rename)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from problemtools_py.cachedir import cache_root

_made: set[Path] = set()  # cache directories known to exist (one mkdir each per process)


def digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def file_digest(path: Path) -> str:
    """The sha256 of a file's bytes, in hex."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


class VerdictCache:
    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or cache_root()) / "verdicts"

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / key

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            data = json.loads(self._path(key).read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Store ``value`` whole or not at all (written under a name of this process and
        thread, then renamed: 4 system calls, a third of atomicfile's cost, and a
        verification stores one per run). A cache that cannot be written is only slower."""
        path = self._path(key)
        scratch = f"{path}.{os.getpid()}-{threading.get_ident()}.tmp"
        try:
            if path.parent not in _made:
                path.parent.mkdir(parents=True, exist_ok=True)
                _made.add(path.parent)
            fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            try:
                data = json.dumps(value).encode()
                while data:
                    data = data[os.write(fd, data) :]
            finally:
                os.close(fd)
            os.replace(scratch, path)
        except OSError:
            _made.discard(path.parent)  # (removed meanwhile: made again next time)
            with contextlib.suppress(OSError):
                os.unlink(scratch)
