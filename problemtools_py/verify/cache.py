"""Verdicts of deterministic runs (validators on inputs), kept by content hash in the
user's cache directory: safe under concurrent use (write to a temporary file, rename)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from problemtools_py import atomicfile
from problemtools_py.cachedir import cache_root


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
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomicfile.write_bytes(path, json.dumps(value).encode(), mode=0o600)
