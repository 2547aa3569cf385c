"""A class-data-sharing archive for javac: the classes javac loads, dumped once per JDK
and mapped by every later javac, which then starts in 0.3 s of CPU instead of 0.55 s.

The archive is made on the first Java compilation that may make it (~1.2 s of CPU, paid
back from the sixth or so: a builder told ``make=False`` uses one only where there is
one, see pch.py), by a javac run on a small program of our own, outside the sandbox (none
of the package's code runs), checked by one more javac run that maps it, and published
whole into the cache under a name of the JDK's identity (its javac, its ``release`` file,
the -J options), so an upgraded JDK makes a new one, which replaces the one before. A
javac that cannot use it (missing, or made by another JVM build) starts as before; a
damaged one can crash the JVM, so a compilation that fails by a signal or a JVM fatal
error is run again without it, and the archive is dropped (see compile.Builder)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from problemtools_py.cachedir import cache_root
from problemtools_py.digests import digest
from problemtools_py.sandbox.protocol import ENV, Bind

MOUNT = "/cds"  # where a compilation's jail sees the archives
_PROBE = (
    "import java.util.*;\n"
    "public class Probe { public static void main(String[] a) {\n"
    "  List<String> l = new ArrayList<>(); Map<String, Integer> m = new HashMap<>();\n"
    "  System.out.println(l.size() + m.size() + new Scanner(System.in).nextInt()); } }\n"
)
_OLD_NAME = re.compile(r"javac-[0-9a-f]{24}\.jsa$")
_lock = threading.Lock()
_memo: dict[tuple[str, tuple[str, ...], bool], Path | None] = {}


def archive(javac: str, options: tuple[str, ...], make: bool = True) -> Path | None:
    """The archive for ``javac`` started with the -J ``options`` (made now if need be, and
    ``make``), or None when there is none (then javac starts without one)."""
    found = shutil.which(javac, path=ENV["PATH"])
    if found is None:
        return None
    real = os.path.realpath(found)
    with _lock:
        if (real, options, make) not in _memo:
            _memo[(real, options, make)] = _find_or_make(real, options, make)
        return _memo[(real, options, make)]


def flags(path: Path) -> list[str]:
    """javac's options to map ``path`` (as the jail sees it, under MOUNT), saying nothing
    when it cannot."""
    return [
        f"-J-XX:SharedArchiveFile={MOUNT}/{path.name}",
        "-J-Xshare:auto",
        "-J-Xlog:cds=off",
        "-J-Xlog:cds+dynamic=off",
        "-J-XX:ErrorFile=/tmp/hs_err_%p.log",
    ]  # (a crash report: not in the build)


def bind(path: Path) -> Bind:
    return Bind(str(path.parent), MOUNT)


def drop(path: Path) -> None:
    """Forget an archive that a compilation could not start with (it is made anew by the
    next process that needs it)."""
    with _lock:
        for key, value in list(_memo.items()):
            if value == path:
                _memo[key] = None
    with contextlib.suppress(OSError):
        path.unlink()


def _key(real: str, options: tuple[str, ...]) -> str:
    """The JDK's identity: its javac, its ``release`` file, the -J options, and the JDK's
    own archives (``lib/<vm>/classes*.jsa``), which ours is laid on: a JVM maps ours only
    over the very archive it was made on ("static archive header checksum verification
    failed"), and a JDK's package may make that one anew (Debian's does, at install, with
    ``java -Xshare:dump``) without a new version."""
    home = Path(real).parent.parent
    st = os.stat(real)
    try:
        release = (home / "release").read_bytes()
    except OSError:
        release = b""
    parts: list[str | bytes] = [
        f"{real} {st.st_ino} {st.st_size} {st.st_mtime_ns}",
        release,
        *options,
    ]
    for base in sorted(home.glob("lib/*/classes*.jsa")):
        with contextlib.suppress(OSError):
            found = base.stat()
            parts.append(f"{base} {found.st_ino} {found.st_size} {found.st_mtime_ns}")
    return digest(*parts)[:24]


def _place(real: str, options: tuple[str, ...]) -> str:
    """The part of an archive's name that stays when its JDK is upgraded in place: the
    javac's path and the -J options (the rest of the name, _key, changes then)."""
    return digest(real, *options)[:12]


def _find_or_make(real: str, options: tuple[str, ...], make: bool) -> Path | None:
    try:
        directory = cache_root() / "javac-cds"
        place = _place(real, options)
        final = directory / f"javac-{place}-{_key(real, options)}.jsa"
        if final.is_file():
            return final
        if not make:
            return None
        directory.mkdir(parents=True, exist_ok=True)
        directory.chmod(0o755)  # (bound into jails, read by the sandbox's user)
        with tempfile.TemporaryDirectory(dir=directory, prefix=".make-") as probe_dir:
            made = _make(real, options, Path(probe_dir))
            if made is None:
                return None
            made.chmod(0o644)
            os.replace(made, final)
        _sweep(directory, place, final)
        return final
    except OSError:
        return None


def _sweep(directory: Path, place: str, final: Path) -> None:
    """Delete the archives ``final`` replaces (~10 MB each): the same javac's before an
    upgrade, and those named as before 2026-12-01 (no place in the name), which nothing
    looks for. (A javac mapping one keeps it; one started after goes on without.)"""
    for old in directory.glob("javac-*.jsa"):
        if old != final and (old.name.startswith(f"javac-{place}-") or _OLD_NAME.match(old.name)):
            with contextlib.suppress(OSError):
                old.unlink()


def _make(real: str, options: tuple[str, ...], probe_dir: Path) -> Path | None:
    """Dump javac's classes into an archive in ``probe_dir``, then check that a javac maps
    it and compiles as it should."""
    source = probe_dir / "Probe.java"
    source.write_text(_PROBE)
    made = probe_dir / "javac.jsa"
    dump = [real, *options, f"-J-XX:ArchiveClassesAtExit={made}", "-d", str(probe_dir), str(source)]
    check = [
        real,
        *options,
        f"-J-XX:SharedArchiveFile={made}",
        "-J-Xshare:on",
        "-d",
        str(probe_dir / "out"),
        str(source),
    ]
    for argv in (dump, check):
        try:
            # (in the sandbox's environment, as compilations run: never the judge's
            # JAVA_TOOL_OPTIONS and the like, which would dump another archive)
            done = subprocess.run(
                argv,
                capture_output=True,
                timeout=120,
                check=False,
                stdin=subprocess.DEVNULL,
                cwd=probe_dir,
                env=dict(ENV),
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if done.returncode != 0 or not made.is_file():
            return None
    return made if (probe_dir / "out" / "Probe.class").is_file() else None
