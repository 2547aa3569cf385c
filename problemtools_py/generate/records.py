"""What was generated, and from what: per test case, a key of its recipe and programs and
the digest of each file it wrote. A case is regenerated when its key changed or its files
were edited or removed since. Kept in the user's cache, per package directory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from problemtools_py.atomicfile import write_bytes
from problemtools_py.cachedir import cache_root
from problemtools_py.digests import sha256_hex

VERSION = 1


def case_key(*parts: object) -> str:
    return sha256_hex(json.dumps(parts, sort_keys=True, default=str).encode())


class Records:
    def __init__(self, root: Path, cache: Path | None = None) -> None:
        name = sha256_hex(str(root.resolve()).encode())[:24]
        self.path = (cache or cache_root()) / "generated" / f"{name}.json"
        self.cases: dict[str, dict[str, Any]] = {}
        try:
            found = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(found, dict) and found.get("version") == VERSION:
            cases = found.get("cases")
            self.cases = cases if isinstance(cases, dict) else {}

    def fresh(self, data: Path, path: str, key: str) -> bool:
        """Whether ``data/<path>.*`` is what the recipe with ``key`` made, untouched."""
        record = self.cases.get(path)
        if not isinstance(record, dict) or record.get("key") != key:
            return False
        files = record.get("files")
        if not isinstance(files, dict) or not files:
            return False
        for ext, want in files.items():
            file = data / f"{path}{ext}"
            try:
                if file.is_symlink() or sha256_hex(file.read_bytes()) != want:
                    return False
            except OSError:
                return False
        return True

    def written(self, path: str) -> list[str]:
        """The extensions recorded for ``path`` (to remove those no longer made)."""
        files = self.cases.get(path, {}).get("files")
        return list(files) if isinstance(files, dict) else []

    def put(self, path: str, key: str, files: dict[str, bytes]) -> None:
        self.cases[path] = {"key": key, "files": {e: sha256_hex(d) for e, d in files.items()}}

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"version": VERSION, "cases": self.cases}, sort_keys=True)
        write_bytes(self.path, text.encode())
