"""DOMjudge's ``submissions.json`` at a package's top: the entry point of some of its
submissions, by path (``{"submissions/accepted/multifile-sh/": {"entry_point":
"main.sh"}}``; its ImportProblemService reads ``entry_point`` and ``langid``, team
names). The format does not read it; verification by DOMjudge's rules does (see
judging.session). Read once, bounded, into the model; a file it cannot read is kept with
the reason, for the checks to report."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import MappingProxyType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

NAME = "submissions.json"
MAX_BYTES = 1 << 20  # (DOMjudge's example has five entries: a MiB is a generous bound)


@dataclass(frozen=True)
class EntryPoints:
    """Entry points by submission path (``submissions/accepted/x``, no final slash)."""

    by_path: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    problem: str | None = None  # why the file could not be read, when it could not

    def of(self, rel: str) -> str | None:
        return self.by_path.get(rel.rstrip("/"))


def read_entry_points(root: Path) -> EntryPoints | None:
    """The package's submissions.json, or None when it has none."""
    path = root / NAME
    if path.is_symlink() or not path.is_file():
        return None
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        return EntryPoints(problem=f"cannot be read: {exc.strerror}")
    if len(raw) > MAX_BYTES:
        return EntryPoints(problem=f"is over {MAX_BYTES >> 20} MiB")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        return EntryPoints(problem=f"is not JSON: {exc}")
    if not isinstance(data, dict):
        return EntryPoints(problem="must map submission paths to their settings")
    found: dict[str, str] = {}
    for path_text, settings in data.items():
        entry = settings.get("entry_point") if isinstance(settings, dict) else None
        if isinstance(entry, str) and entry:
            found[path_text.rstrip("/")] = entry
    return EntryPoints(MappingProxyType(found))
