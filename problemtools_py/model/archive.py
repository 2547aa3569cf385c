"""A package given as a ZIP archive (``.zip`` or ``.kpp``): "a ZIP-compressed archive of
such a directory with identical base name" (2025-09). It is unpacked safely into a
temporary directory and read from there like any package:

- no entry may leave the archive's directory (absolute paths, ``..``, drive letters);
- symbolic links are unpacked only when they point inside the package (else refused);
- the entries' total size, each entry's size and their number are bounded, and sizes are
  counted as the data is written, not taken from the archive's own headers (zip bombs);
- the archive holds one directory named like the archive (``hello.zip`` -> ``hello/``),
  or (as problemtools also reads them) the package's files at its top level."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from problemtools_py.errors import FatalError

TYPE_CHECKING = False  # (not typing's: importing it costs every command ~3 ms)
if TYPE_CHECKING:
    import zipfile

ARCHIVE_SUFFIXES = (".zip", ".kpp")
MAX_TOTAL = 4 << 30  # bytes unpacked, in all
MAX_ENTRIES = 100_000


def is_archive(path: Path) -> bool:
    return path.suffix.lower() in ARCHIVE_SUFFIXES and path.is_file()


def packages_of(archive: Path) -> list[str]:
    """The packages of a contest's archive (``problem2zip --problemset``, DOMjudge's): the
    top-level directories that hold a ``problem.yaml``, two or more, when the archive is
    not one package's; else none (:func:`unpacked` says what is wrong with an odd one)."""
    import zipfile

    try:
        with zipfile.ZipFile(archive) as bundle:
            names = bundle.namelist()
    except (OSError, zipfile.BadZipFile, NotImplementedError):
        return []
    return _packages_among(names, archive.stem)


def _packages_among(names: list[str], stem: str) -> list[str]:
    """:func:`packages_of`, from the archive's entry names."""
    if "problem.yaml" in names or f"{stem}/problem.yaml" in names:
        return []
    found = {n.split("/")[0] for n in names if n.count("/") == 1 and n.endswith("/problem.yaml")}
    return sorted(found) if len(found) > 1 else []  # (one: a package's, misnamed: said so)


@contextlib.contextmanager
def unpacked(archive: Path, whole: bool = False) -> Iterator[Path]:
    """The package inside ``archive``, unpacked into a temporary directory removed after;
    with ``whole``, the archive's every entry (a contest's: its packages side by side)."""
    import tempfile
    import zipfile  # (here: every package that is not an archive, -p config, needs neither)

    try:
        bundle = zipfile.ZipFile(archive)
    except (OSError, zipfile.BadZipFile, NotImplementedError) as exc:  # (a version it lacks)
        raise FatalError(f"not a readable ZIP archive: {exc}", path=archive) from exc
    tmp = Path(tempfile.mkdtemp(prefix="ptpy-archive-"))
    try:
        with bundle:
            root = tmp / archive.stem
            for info in bundle.infolist():
                _check_name(info.filename, archive)
            prefix = "" if whole else _prefix(bundle, archive)
            _extract(bundle, archive, root, prefix)
        yield root
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _prefix(bundle: zipfile.ZipFile, archive: Path) -> str:
    """ "name/" when every entry is in one directory named like the archive, else ""."""
    names = [info.filename for info in bundle.infolist()]
    tops = {name.split("/", 1)[0] for name in names if name}
    if tops == {archive.stem} and all("/" in n or n.endswith("/") for n in names):
        return archive.stem + "/"
    if any(n == "problem.yaml" for n in names):
        return ""
    inner = _packages_among(names, archive.stem)  # (the names read: not the file again)
    if inner:  # (a contest's archive, given where one package is expected)
        raise FatalError(
            f"an archive of {len(inner)} packages ({', '.join(inner[:5])}), not of one: unpack "
            "it and give its directory, which stands for the packages in it",
            path=archive,
        )
    raise FatalError(
        f"a package archive holds one directory named '{archive.stem}/' (or the package's "
        f"files at its top level); this one holds {', '.join(sorted(tops)[:5]) or 'nothing'}",
        path=archive,
    )


def _extract(bundle: zipfile.ZipFile, archive: Path, root: Path, prefix: str) -> None:
    """Unpack as data: files and directories first (no link exists yet, so none is written
    through), every entry below a link entry refused; then the links, each of which must
    resolve inside the package once all of them are in place (a chain of links checked
    one at a time, ``x -> y/..`` before ``y -> .``, could leave it)."""
    infos = bundle.infolist()
    if len(infos) > MAX_ENTRIES:
        raise FatalError(f"more than {MAX_ENTRIES} entries", path=archive)
    entries = _entries(infos, prefix, archive)
    links = {rel: info for rel, info in entries.items() if _is_link(info)}
    for rel in entries:
        above = next((p for p in PurePosixPath(rel).parents if str(p) in links), None)
        if above is not None:
            raise FatalError(
                f"the entry '{entries[rel].filename}' lies below the symlink "
                f"'{links[str(above)].filename}'",
                path=archive,
            )
    root.mkdir()
    written = 0
    for rel, info in entries.items():
        if rel not in links:
            with _guarded(info, archive):
                written += _entry(bundle, info, root / rel, archive, MAX_TOTAL - written)
    for rel, info in sorted(links.items()):
        with _guarded(info, archive):
            _symlink(bundle, info, root / rel, archive)
    inside = root.resolve()
    for rel, info in sorted(links.items()):
        resolved = Path(os.path.realpath(root / rel))
        if not (resolved == inside or inside in resolved.parents):
            link = bundle.read(info).decode("utf-8", "replace")
            raise FatalError(
                f"the symlink '{info.filename}' -> '{link}' points outside the package",
                path=archive,
            )


def _entries(
    infos: list[zipfile.ZipInfo], prefix: str, archive: Path
) -> dict[str, zipfile.ZipInfo]:
    """The entries below ``prefix`` by their path in the package; a name twice is refused
    (which of the two would win is the unpacker's choice, not the author's)."""
    found: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        if not info.filename.startswith(prefix):
            continue
        rel = PurePosixPath(info.filename[len(prefix) :])  # (every name was checked first)
        if not rel.parts:
            continue
        if str(rel) in found:
            raise FatalError(f"the entry '{info.filename}' appears twice", path=archive)
        found[str(rel)] = info
    return found


def _is_link(info: zipfile.ZipInfo) -> bool:
    return stat.S_ISLNK(info.external_attr >> 16) and not info.is_dir()


@contextlib.contextmanager
def _guarded(info: zipfile.ZipInfo, archive: Path) -> Iterator[None]:
    """Unpacking one entry: its failures a FatalError naming it."""
    import zipfile
    import zlib

    try:
        yield
    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError) as exc:
        # (a damaged entry, an encrypted one, a compression zipfile cannot read)
        raise FatalError(
            f"not a readable ZIP archive: entry '{info.filename}': {exc}", path=archive
        ) from exc
    except OSError as exc:  # (a file where a directory is, or the other way round)
        raise FatalError(
            f"entry '{info.filename}' cannot be unpacked: {exc.strerror or exc}", path=archive
        ) from exc


def _entry(
    bundle: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, archive: Path, room: int
) -> int:
    """Unpack one file or directory to ``target``; the bytes it wrote (at most ``room``)."""
    mode = info.external_attr >> 16
    if info.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        return 0
    target.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with bundle.open(info) as source, target.open("wb") as out:
        while chunk := source.read(1 << 20):
            written += len(chunk)
            if written > room:
                raise FatalError(f"unpacks to more than {MAX_TOTAL >> 30} GiB", path=archive)
            out.write(chunk)
    if mode & 0o111:
        target.chmod(0o755)
    return written


def _check_name(name: str, archive: Path) -> None:
    """An entry may only name a path inside the archive's directory."""
    parts = PurePosixPath(name).parts
    if name.startswith("/") or ".." in parts or ":" in name.split("/", 1)[0] or "\\" in name:
        raise FatalError(f"the entry '{name}' would be written outside the package", path=archive)


def _symlink(bundle: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, archive: Path) -> None:
    """Make one link (checked with the others once all are made: see _extract)."""
    link = bundle.read(info).decode("utf-8", "replace")
    if link.startswith("/") or "\0" in link:
        raise FatalError(
            f"the symlink '{info.filename}' -> '{link}' points outside the package", path=archive
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    target.symlink_to(link)
