"""The C run loop of lean inits (``leanloop.c``), compiled on first use into the cache
(``native/leanloop-<digest>.so``, named by the source and the compiler) and reused; None
where it cannot be had (no C compiler, a failed build, or ``PROBLEMTOOLS_PY_LEAN_LOOP=python``
in the environment), and the inits' loop in Python serves, with the same results."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from problemtools_py.sandbox.launch import cache_dir
from problemtools_py.sandbox.protocol import ENV
from problemtools_py.sandbox.protocol import LEAN_LOOP as SWITCH

SOURCE = Path(__file__).with_name("leanloop.c")
_lock = threading.Lock()
_built: list[str | None] = []


def library(wait: bool = True) -> str | None:
    """The loop's shared library (built now if need be), or None. ``wait=False``: None
    rather than waiting for a build another thread has under way (~0.2 s, once per
    machine): a session of few runs is served as well by the Python loop meanwhile."""
    if os.environ.get(SWITCH, "").lower() == "python":
        return None
    if not _lock.acquire(blocking=wait):
        return None
    try:
        if not _built:
            _built.append(_build())
        return _built[0]
    finally:
        _lock.release()


def _compiler() -> str | None:
    return shutil.which("cc") or shutil.which("gcc")


def _build() -> str | None:
    compiler = _compiler()
    if compiler is None or not SOURCE.is_file():
        return None
    source = SOURCE.read_bytes()
    key = hashlib.sha256(source + compiler.encode() + os.uname().machine.encode())
    target = cache_dir() / "native" / f"leanloop-{key.hexdigest()[:16]}.so"
    if target.is_file():
        return str(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, staged = tempfile.mkstemp(dir=target.parent, prefix=".leanloop-", suffix=".so")
        os.close(fd)
        # (in the sandbox's environment: a CPATH of the judge's would shadow its headers,
        # and the build is kept for every later run)
        argv = [compiler, "-O2", "-shared", "-fPIC", "-o", staged, str(SOURCE)]
        done = subprocess.run(argv, capture_output=True, timeout=120, check=False, env=dict(ENV))
        if done.returncode != 0:
            os.unlink(staged)
            return None
        os.chmod(staged, 0o644)
        os.replace(staged, target)  # (two builders: the same bytes, either wins)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return str(target)
