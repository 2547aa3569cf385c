"""Content digests, decided once: every sha256 the package keys a cache or a record by.

``sha256_hex`` is the plain digest of some bytes (what ``sha256sum`` prints, and what
generatedata's records and the dataset's build report store); ``digest`` frames each
part by its length first, so ``digest("ab", "c")`` and ``digest("a", "bc")`` differ (the
verdict cache's keys); ``file_digest`` is ``sha256_hex`` of a file read in blocks, and
``data_digest`` the same kept in this process for a package's file while it is unchanged.
The sandbox, a separate program on the standard library only, keys its own two caches."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def sha256_hex(data: bytes) -> str:
    """The sha256 of ``data``, in hex."""
    return hashlib.sha256(data).hexdigest()


def digest(*parts: bytes | str) -> str:
    """The sha256 of ``parts`` (text as UTF-8), each preceded by its length, in hex."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def file_digest(path: Path) -> str:
    """The sha256 of a file's bytes, in hex (OSError when it cannot be read)."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


_DATA_DIGESTS: dict[tuple[str, int, int, int, int], str] = {}


def data_digest(path: Path, root: Path) -> str:
    """:func:`file_digest`, kept in this process for a file of the package below ``root``
    (a case's input and answer, hashed once per submission otherwise) while its inode,
    size and times stay the same; a file elsewhere (an output, a scratch input) is hashed
    every time."""
    if not str(path).startswith(f"{root}/"):
        return file_digest(path)
    st = os.stat(path)
    key = (str(path), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    found = _DATA_DIGESTS.get(key)
    if found is None:
        found = _DATA_DIGESTS[key] = file_digest(path)
    return found
