"""Every file and directory of a package, walked once, with a summary of each text file.

Text files are scanned in chunks (test data may be large), so checks get UTF-8 validity,
BOM, CR and final-newline facts without reading anything again."""

from __future__ import annotations

import codecs
import os
from dataclasses import dataclass
from pathlib import Path

# Extensions of files the format says are text. Keys are matched on the full suffix chain.
TEXT_SUFFIXES = (
    ".yaml",
    ".yml",
    ".tex",
    ".md",
    ".in",
    ".ans",
    ".desc",
    ".hint",
    ".interaction",
    ".out",
    ".txt",
    ".ctd",
    ".viva",
    ".statement",
    ".download",
)
IGNORED_NAMES = frozenset({".git", ".gitignore", ".gitattributes", ".timelimit"})
_CHUNK = 1 << 20


@dataclass(frozen=True)
class TextScan:
    """What the encoding checks need to know about one text file."""

    size: int
    utf8: bool
    bad_line: int | None  # line of the first byte that is not UTF-8
    bom: bool
    cr_line: int | None  # line of the first carriage return
    final_newline: bool  # True for empty files


@dataclass(frozen=True)
class FileEntry:
    """One path of the package as it was found (type, link, text scan)."""

    rel: str  # POSIX path relative to the problem root
    is_dir: bool
    is_symlink: bool
    link_target: str | None = None
    link_ok: bool = True  # a symlink that resolves to something inside the package
    text: TextScan | None = None
    special: bool = False  # a FIFO, socket or device: never opened
    # a symlink out of the package to a file of BAPCtools' own (its problems link its
    # headers: ../../bapctools/resources/headers/validation.h): read, and named as
    # BAPCtools' extension
    bt_resource: bool = False

    @property
    def name(self) -> str:
        return self.rel.rsplit("/", 1)[-1]

    @property
    def readable(self) -> bool:
        """A regular file (or a symlink to one inside the package) that may be read."""
        return self.usable and not self.is_dir

    @property
    def usable(self) -> bool:
        """A readable file or a directory (a symlink only to either inside the package): an
        entry the package is read from; the others are reported and never opened."""
        return not self.special and (not self.is_symlink or self.link_ok or self.bt_resource)


def is_text_name(name: str) -> bool:
    return name.lower().endswith(TEXT_SUFFIXES)


def scan_text(path: Path) -> TextScan:
    decoder = codecs.getincrementaldecoder("utf-8")()
    size = 0
    lines_before = 0
    bad_line: int | None = None
    cr_line: int | None = None
    first = b""
    last = b""
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            if not first:
                first = chunk[:3]
            if bad_line is None:
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError as exc:
                    bad_line = lines_before + chunk[: exc.start].count(b"\n") + 1
            if cr_line is None and b"\r" in chunk:
                cr_line = lines_before + chunk[: chunk.index(b"\r")].count(b"\n") + 1
            lines_before += chunk.count(b"\n")
            size += len(chunk)
            last = chunk[-1:]
    if bad_line is None:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            bad_line = lines_before + 1
    return TextScan(
        size=size,
        utf8=bad_line is None,
        bad_line=bad_line,
        bom=first.startswith(b"\xef\xbb\xbf"),
        cr_line=cr_line,
        final_newline=size == 0 or last == b"\n",
    )


def _symlink_facts(path: Path, root: Path) -> tuple[str, bool, bool]:
    """A link's target, whether it resolves to a file or directory inside the package,
    and whether it is one to a file of BAPCtools' own (see FileEntry.bt_resource)."""
    target = os.readlink(path)
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return target, False, False
    inside = resolved == root or root in resolved.parents
    regular = resolved.is_file() or resolved.is_dir()
    ok = inside and regular and not os.path.isabs(target)
    return target, ok, not inside and _bt_resource(resolved)


BT_RESOURCE_BYTES = 1 << 20


def _bt_resource(resolved: Path) -> bool:
    """A regular file of at most a MiB below a ``bapctools/resources/`` directory: what
    BAPCtools' problems link to, and nothing else of the host's."""
    parts = resolved.parts
    below = any(parts[i : i + 2] == ("bapctools", "resources") for i in range(len(parts) - 2))
    try:
        return below and resolved.is_file() and resolved.stat().st_size <= BT_RESOURCE_BYTES
    except OSError:
        return False


def walk_package(root: Path) -> tuple[FileEntry, ...]:
    """All entries below ``root`` in sorted order; symlinks are listed, never followed.
    ``.git`` directories are skipped entirely."""
    root = root.resolve()
    entries: list[FileEntry] = []
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            children = sorted(os.scandir(directory), key=lambda e: e.name, reverse=True)
        except OSError:
            continue
        for child in children:
            if child.name == ".git":
                continue
            path = Path(child.path)
            rel = path.relative_to(root).as_posix()
            if child.is_symlink():
                target, ok, bt = _symlink_facts(path, root)
                scan = scan_text(path) if ok and path.is_file() and is_text_name(rel) else None
                entry = FileEntry(rel, path.is_dir(), True, target, ok, scan, bt_resource=bt)
                entries.append(entry)
            elif child.is_dir():
                entries.append(FileEntry(rel, True, False))
                stack.append(path)
            elif not child.is_file():
                entries.append(FileEntry(rel, False, False, special=True))
            else:
                scan = scan_text(path) if is_text_name(child.name) else None
                entries.append(FileEntry(rel, False, False, text=scan))
    entries.sort(key=lambda e: e.rel)
    return tuple(entries)
