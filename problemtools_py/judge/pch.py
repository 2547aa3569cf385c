"""A precompiled ``<bits/stdc++.h>`` for g++. Most C++ contest programs start with that
include, and parsing it is ~1.1 s of the ~1.35 s their compilation takes (g++ 12, -O2,
two cores); from its precompiled state it is ~0.25 s. The state is made once per
compiler, options and headers (~3.5 s, ~120 MB), when the first program that includes the
header is compiled, and kept in the cache.

g++ looks for ``bits/stdc++.h.gch`` in each include directory before the header itself;
a compilation gets the state's directory as ``-I /pch`` (bound read-only). g++ uses it
only where it holds: the header included before any code, the same options and macros;
anywhere else it goes on to the system's header, as without it. The program compiles
to the same bytes either way (tested).

The state is made outside the sandbox, from a header of our own (the one include) and the
system's headers: none of the package's code runs. Its name in the cache comes from the
compiler (its file and cc1plus's), the options, and every header the include reads
(path, inode, size, time: ``g++ -M``, ~60 ms once per process), so an upgraded compiler or
library makes a new one; g++ checks the rest. Making one needs 1 GiB free beside it."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from problemtools_py.cachedir import cache_root
from problemtools_py.sandbox.protocol import ENV, Bind

MOUNT = "/pch"  # where a compilation's jail sees the state's directory
STATE = "bits/stdc++.h.gch"
ROOM = 1 << 30  # free space a new state leaves on the cache's file system (beyond itself)
SIZE = 300 << 20  # the most a state takes (g++ 12, -std=gnu++20: ~120 MB)
_SOURCE = b"#include <bits/stdc++.h>\n"
_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"]bits/stdc\+\+\.h[>\"]", re.M)
_lock = threading.Lock()
_memo: dict[tuple[str, ...], Path | None] = {}


def wanted(texts: Iterable[bytes]) -> bool:
    """Whether a program's source files include ``<bits/stdc++.h>``."""
    return any(_INCLUDE.search(text) for text in texts)


def options(argv: Sequence[str], sources: Sequence[str]) -> tuple[str, ...]:
    """The options of a compile command that shape what the header compiles to: all but
    the compiler, its output (``-o X``), its language (``-x X``) and the sources."""
    kept: list[str] = []
    skip = False
    for arg in argv[1:]:
        if skip:
            skip = False
        elif arg in ("-o", "-x"):
            skip = True
        elif arg not in sources and not arg.startswith(("-o", "-x")):
            kept.append(arg)
    return tuple(kept)


def directory(compiler: str, flags: tuple[str, ...]) -> Path | None:
    """The directory holding the state for ``compiler`` (a g++) with ``flags``, made now if
    need be, or None when there is none (another compiler, no room, a failure)."""
    found = shutil.which(compiler, path=ENV["PATH"])
    if found is None or "g++" not in os.path.basename(os.path.realpath(found)):
        return None
    key = (os.path.realpath(found), *flags)
    with _lock:
        if key not in _memo:
            _memo[key] = _find_or_make(key[0], flags)
        return _memo[key]


def decorate(
    argv: list[str], binds: list[Bind], sources: Sequence[str], texts: Iterable[bytes]
) -> tuple[list[str], list[Bind]]:
    """A C++ compile command and its binds, with the state where the program wants it."""
    if not argv or not wanted(texts):
        return argv, binds
    found = directory(argv[0], options(argv, sources))
    if found is None:
        return argv, binds
    return [argv[0], "-I", MOUNT, *argv[1:]], [*binds, Bind(str(found), MOUNT)]


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes] | None:
    try:
        return subprocess.run(argv, capture_output=True, timeout=300, check=False,
                              stdin=subprocess.DEVNULL, cwd=cwd)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None


def _stat(path: str) -> str:
    st = os.stat(path)
    return f"{path} {st.st_ino} {st.st_size} {st.st_mtime_ns}"


def _key(real: str, flags: tuple[str, ...], scratch: Path) -> tuple[str, str] | None:
    """(the compiler and options' part of the name, the headers' part), or None."""
    (scratch / "h.h").write_bytes(_SOURCE)
    cc1plus = _run([real, "-print-prog-name=cc1plus"], scratch)
    deps = _run([real, *flags, "-x", "c++", "-M", "h.h"], scratch)
    if cc1plus is None or deps is None or deps.returncode != 0:
        return None
    tool = os.path.realpath(cc1plus.stdout.decode().strip())
    headers = deps.stdout.decode().replace("\\\n", " ").split()[2:]  # ("h.o:", "h.h")
    try:
        compiler = "\n".join([_stat(real), _stat(tool), *flags])
        read = "\n".join(_stat(h) for h in sorted(set(headers)))
    except OSError:
        return None
    return _digest(compiler), _digest(read)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _find_or_make(real: str, flags: tuple[str, ...]) -> Path | None:
    try:
        base = cache_root() / "pch"
        base.mkdir(parents=True, exist_ok=True)
        base.chmod(0o755)  # (bound into jails, read by the sandbox's user)
        with tempfile.TemporaryDirectory(dir=base, prefix=".make-") as scratch:
            key = _key(real, flags, Path(scratch))
            if key is None:
                return None
            final = base / f"{key[0]}-{key[1]}"
            if (final / STATE).is_file():
                return final
            if shutil.disk_usage(base).free < ROOM + SIZE:
                return None
            made = _make(real, flags, Path(scratch))
            if made is None:
                return None
            try:
                os.replace(made, final)
            except OSError:  # (another process published it first: theirs serves)
                return final if (final / STATE).is_file() else None
        for old in base.glob(f"{key[0]}-*"):  # (for an older compiler or headers)
            if old != final:
                shutil.rmtree(old, ignore_errors=True)
        return final
    except OSError:
        return None


def _make(real: str, flags: tuple[str, ...], scratch: Path) -> Path | None:
    """The state, in a directory of its own in ``scratch`` (readable by everyone)."""
    out = scratch / "out"
    (out / "bits").mkdir(parents=True)
    done = _run([real, *flags, "-x", "c++-header", "h.h", "-o", str(out / STATE)], scratch)
    if done is None or done.returncode != 0 or not (out / STATE).is_file():
        return None
    with contextlib.suppress(OSError):
        for path in (out, out / "bits"):
            path.chmod(0o755)
        (out / STATE).chmod(0o644)
    return out
