"""Reproducible zip files: entries sorted, one fixed timestamp, modes 0644 or 0755, no
extra fields; written under a temporary name beside the target and renamed over it, so
a reader never sees half a zip and a failure leaves nothing."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from problemtools_py import atomicfile

FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say


@dataclass(frozen=True)
class Entry:
    """One file to write into a zip archive."""

    name: str  # the path inside the zip
    data: bytes
    executable: bool = False


def write_zip(target: Path, entries: Iterable[Entry]) -> int:
    """Write ``entries`` (sorted by name) to ``target``; the number written."""
    ordered = sorted(entries, key=lambda e: e.name)
    names = [e.name for e in ordered]
    if len(set(names)) != len(names):
        raise ValueError("two entries share a name")
    with (  # (closed in reverse order: the archive, its file, then the rename)
        atomicfile.Pending(target, parents=True) as pending,
        os.fdopen(pending.fd, "wb") as handle,
        zipfile.ZipFile(handle, "w") as archive,
    ):
        for entry in ordered:
            info = zipfile.ZipInfo(entry.name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # unix, so the mode below is read
            info.external_attr = (0o100755 if entry.executable else 0o100644) << 16
            archive.writestr(info, entry.data, compresslevel=9)
    return len(ordered)
