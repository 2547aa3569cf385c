"""Precompiled headers for g++: the header a C++ program includes first (of the
language's ``precompiled_headers``: ``<bits/stdc++.h>``, ``<iostream>``) read from its
precompiled state. Parsing ``<bits/stdc++.h>`` is ~1.1 s of the ~1.35 s such a
compilation takes (g++ 12, -O2), ~0.25 s from the state; ``<iostream>`` 0.25 -> 0.09 s
of CPU. A state is made once per compiler, options and headers (~3.5 s and ~120 MB for
``<bits/stdc++.h>``, ~0.5 s and ~30 MB for ``<iostream>``), when the first program that
starts with the header is compiled, and kept in the cache; it pays for itself from the
fourth compilation or so. So a builder may be told to use a state only where there is one
(``make=False``): a verification on a machine whose cache is new (see
cachedir.used_before) compiles its few programs without, in parallel, rather than wait
for a state nothing may use again.

g++ looks for ``<header>.gch`` in each include directory before the header itself; a
compilation gets the state's directory as ``-I /pch/0`` (bound read-only). g++ uses a
state only where it holds: the first include, the same options and macros. Anywhere else
(the header included again, or after a macro the state depends on) g++ reads the header
of that same directory instead, so beside the state lies a header of one line,
``#include_next <header>``: the system's header, as without the state. (Without it, a
second ``#include <bits/stdc++.h>`` failed: "/pch/0/bits/stdc++.h: No such file".) The
program compiles to the same bytes either way (tested).

The state is made outside the sandbox, from a header of our own (the one include) and the
system's headers: none of the package's code runs. Its name in the cache comes from the
compiler (its file and cc1plus's), the options, and every header the include reads
(path, inode, size, time: ``g++ -M``, ~60 ms once per process), so an upgraded compiler or
library makes a new one; g++ checks the rest. Making one needs 1 GiB free beside it."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from problemtools_py import atomicfile
from problemtools_py.cachedir import cache_root
from problemtools_py.digests import sha256_hex
from problemtools_py.errors import FatalError
from problemtools_py.sandbox.protocol import ENV, Bind

MOUNT = "/pch"  # where a compilation's jail sees the states' directories (/pch/0, ...)
ROOM = 1 << 30  # free space a new state leaves on the cache's file system (beyond itself)
SIZE = 300 << 20  # the most a state takes (g++ 12, -std=gnu++20: ~120 MB)
_SOURCE = "#include <{header}>\n"  # (the one-line header a state is made from)
_FORWARD = "#include_next <{header}>\n"  # (beside the state: where g++ cannot use it)
_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"\n]+)[>\"]", re.M)
_lock = threading.Lock()
_memo: dict[tuple[str, str, bool, tuple[str, ...]], Path | None] = {}


def first_include(text: bytes) -> str | None:
    """The header a source file includes first (its first ``#include`` line), or None."""
    found = _INCLUDE.search(text)
    return found.group(1).decode("utf-8", "replace") if found else None


def state(header: str) -> str:
    """A header's state, as g++ looks for it in an include directory."""
    return f"{header}.gch"


def options(argv: Sequence[str], sources: Sequence[str]) -> tuple[str, ...]:
    """The options of a compile command that shape what the header compiles to: all but
    the compiler, its output (``-o X``), its language (``-x X``), its linker
    (``-fuse-ld=X``) and the sources."""
    kept: list[str] = []
    skip = False
    for arg in argv[1:]:
        if skip:
            skip = False
        elif arg in ("-o", "-x"):
            skip = True
        elif arg not in sources and not arg.startswith(("-o", "-x", "-fuse-ld=")):
            kept.append(arg)
    return tuple(kept)


def directory(compiler: str, flags: tuple[str, ...], header: str, make: bool = True) -> Path | None:
    """The directory holding ``header``'s state for ``compiler`` (a g++) with ``flags``,
    made now if need be (and ``make``), or None when there is none (another compiler, no
    room, a failure)."""
    found = shutil.which(compiler, path=ENV["PATH"])
    if found is None or "g++" not in os.path.basename(os.path.realpath(found)):
        return None
    key = (os.path.realpath(found), header, make, flags)
    with _lock:
        if key not in _memo:
            _memo[key] = _find_or_make(key[0], flags, header, make)
        return _memo[key]


def decorate(
    argv: list[str],
    binds: list[Bind],
    sources: Sequence[str],
    texts: Iterable[bytes],
    headers: Sequence[str],
    make: bool = True,
) -> tuple[list[str], list[Bind]]:
    """A C++ compile command and its binds, with the states of the ``headers`` its
    sources include first (made now if need be, and ``make``)."""
    wanted = sorted({h for h in map(first_include, texts) if h is not None and h in headers})
    if not argv or not wanted:
        return argv, binds
    flags = options(argv, sources)
    found = [d for d in (directory(argv[0], flags, h, make) for h in wanted) if d is not None]
    mounts = [f"{MOUNT}/{index}" for index in range(len(found))]
    extra = [arg for mount in mounts for arg in ("-I", mount)]
    return [argv[0], *extra, *argv[1:]], [*binds, *map(Bind, map(str, found), mounts)]


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes] | None:
    """g++ in the environment the sandbox's compilations have, never the judge's own (a
    CPATH there would make a state of other headers, which g++ would then take)."""
    try:
        return subprocess.run(
            argv,
            capture_output=True,
            timeout=300,
            check=False,
            stdin=subprocess.DEVNULL,
            cwd=cwd,
            env=dict(ENV),
        )
    except (OSError, subprocess.TimeoutExpired):
        return None


def _stat(path: str) -> str:
    st = os.stat(path)
    return f"{path} {st.st_ino} {st.st_size} {st.st_mtime_ns}"


def _key(real: str, flags: tuple[str, ...], header: str, probe_dir: Path) -> tuple[str, str] | None:
    """(the compiler, options and header's part of the name, the files' part), or None."""
    (probe_dir / "h.h").write_text(_SOURCE.format(header=header))
    cc1plus = _run([real, "-print-prog-name=cc1plus"], probe_dir)
    deps = _run([real, *flags, "-x", "c++", "-M", "h.h"], probe_dir)
    if cc1plus is None or deps is None or deps.returncode != 0:
        return None
    tool = os.path.realpath(cc1plus.stdout.decode().strip())
    headers = deps.stdout.decode().replace("\\\n", " ").split()[2:]  # ("h.o:", "h.h")
    try:
        compiler = "\n".join([_stat(real), _stat(tool), header, *flags])
        read = "\n".join(_stat(h) for h in sorted(set(headers)))
    except OSError:
        return None
    return _digest(compiler), _digest(read)


def _digest(text: str) -> str:
    return sha256_hex(text.encode())[:16]


def _find_or_make(real: str, flags: tuple[str, ...], header: str, make: bool) -> Path | None:
    try:
        base = cache_root() / "pch"
        if not make and not any(base.glob(f"*-*/{state(header)}")):
            return None  # (nothing to find: not even the ~60 ms of asking g++ its key)
        base.mkdir(parents=True, exist_ok=True)
        base.chmod(0o755)  # (bound into jails, read by the sandbox's user)
        with tempfile.TemporaryDirectory(dir=base, prefix=".make-") as probe_dir:
            key = _key(real, flags, header, Path(probe_dir))
            if key is None:
                return None
            final = base / f"{key[0]}-{key[1]}"
            if (final / state(header)).is_file():
                return final if _forwarding(final, header) else None
            if not make or shutil.disk_usage(base).free < ROOM + SIZE:
                return None
            made = _make(real, flags, header, Path(probe_dir))
            if made is None:
                return None
            try:
                os.replace(made, final)
            except OSError:  # (another process published it first: theirs serves)
                return final if (final / state(header)).is_file() else None
        for old in base.glob(f"{key[0]}-*"):  # (for an older compiler or headers)
            if old != final:
                shutil.rmtree(old, ignore_errors=True)
        return final
    except OSError:
        return None


def _forwarding(final: Path, header: str) -> bool:
    """Whether the header beside ``final``'s state forwards to the system's (added now to
    a state made before there was one)."""
    forward = final / header
    text = _FORWARD.format(header=header)
    try:
        if not (forward.is_file() and forward.read_text() == text):
            atomicfile.write_bytes(forward, text.encode(), 0o644)
        return True
    except (OSError, FatalError):
        return False


def _make(real: str, flags: tuple[str, ...], header: str, probe_dir: Path) -> Path | None:
    """The state, in a directory of its own in ``probe_dir`` (readable by everyone)."""
    out = probe_dir / "out"
    made = out / state(header)
    made.parent.mkdir(parents=True)
    done = _run([real, *flags, "-x", "c++-header", "h.h", "-o", str(made)], probe_dir)
    if done is None or done.returncode != 0 or not made.is_file():
        return None
    forward = out / header
    forward.write_text(_FORWARD.format(header=header))
    with contextlib.suppress(OSError):
        for path in made.relative_to(out).parents:  # (out itself is ".")
            (out / path).chmod(0o755)
        made.chmod(0o644)
        forward.chmod(0o644)
    return out
