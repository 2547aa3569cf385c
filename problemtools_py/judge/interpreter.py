"""Another Python for the programs (``--python PATH``): an interpreter, or a virtual
environment with the packages a problem's programs may use (numpy, say). Programs then
run as ``PATH prog.py``, afresh each time, with site-packages as that interpreter has
them, under the same isolation: its installation and environment are bound read-only
into every jail at their own paths. By default a program sees the standard library
only, as on most judges."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from problemtools_py.errors import FatalError
from problemtools_py.exitcodes import ExitCode
from problemtools_py.sandbox.protocol import ENV

# What every jail shows already (the sandbox binds them): nothing below them is bound again.
SYSTEM = ("/usr/", "/etc/", "/bin/", "/lib/", "/lib64/", "/sbin/")
# Where a jail has scratch space of its own (a new file system each run, over anything
# bound there), and the judge its files: a directory there is bound below PLACE instead.
SCRATCH = ("/tmp/", "/dev/shm/", "/work/", "/prog/", "/judge/", "/build/")
PLACE = "/.python"
_PROBE = (
    "import json, sys; print(json.dumps([sys.executable, sorted({sys.prefix, sys.base_prefix, "
    "sys.exec_prefix, sys.base_exec_prefix}), list(sys.version_info[:2])]))"
)


@dataclass(frozen=True)
class Interpreter:
    """A Python the programs run with: its executable and the directories a jail binds
    for it (its installation and virtual environment, where outside the system's)."""

    executable: str  # as a jail sees it
    version: tuple[int, int]
    binds: tuple[tuple[str, str], ...] = ()  # (host directory, where a jail has it)


@cache
def find(path: str, option: str = "--python") -> Interpreter:
    """The Python at ``path``: an interpreter, or a virtual environment's directory (its
    ``bin/python3``). A usage error names what is wrong with it (given as ``option``)."""
    candidate = Path(path).expanduser()
    if candidate.is_dir():
        found = [candidate / "bin" / name for name in ("python3", "python")]
        candidate = next((c for c in found if c.exists()), found[0])
    if not (candidate.is_file() and os.access(candidate, os.X_OK)):
        raise FatalError(
            f"{option} {path}: no Python interpreter there (a file to run, or a "
            "virtual environment's directory)",
            exit_code=ExitCode.USAGE,
        )
    try:
        done = subprocess.run(
            [str(candidate), "-c", _PROBE],
            capture_output=True,
            text=True,
            env=dict(ENV),
            timeout=60,
            check=True,
        )
        executable, prefixes, version = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        raise FatalError(
            f"{option} {path}: it does not run as Python 3 ({exc})", exit_code=ExitCode.USAGE
        ) from exc
    if version[0] != 3:
        raise FatalError(
            f"{option} {path}: Python {version[0]}.{version[1]}; programs are Python 3",
            exit_code=ExitCode.USAGE,
        )
    # Only what the interpreter reports is bound (its prefixes), never the directory of
    # the path given: a link there would bind all that lies beside it into every jail.
    outside = _outermost(sorted(p for p in set(prefixes) if not (p + "/").startswith(SYSTEM)))
    for place in outside:
        if _too_wide(place):
            raise FatalError(
                f"{option} {path}: its prefix {place} is / or a home directory "
                "(every file there would be in every jail); give an interpreter "
                "installed in a directory of its own, or a virtual environment",
                exit_code=ExitCode.USAGE,
            )
    bound = [*outside, *SYSTEM]
    runs = executable if _within(executable, bound) else os.path.realpath(executable)
    if not _within(runs, bound):
        raise FatalError(
            f"{option} {path}: its executable {runs} lies outside its prefixes "
            f"({', '.join(prefixes)})",
            exit_code=ExitCode.USAGE,
        )
    return Interpreter(
        _inside(runs), (version[0], version[1]), tuple((place, _inside(place)) for place in outside)
    )


def _within(path: str, places: list[str]) -> bool:
    return any(path.startswith(p.rstrip("/") + "/") for p in places)


def _too_wide(place: str) -> bool:
    """``/``, a home directory, or a directory holding one."""
    homes = {os.path.expanduser("~"), "/root", *(str(h) for h in Path("/home").glob("*"))}
    real = os.path.realpath(place)
    return real == "/" or any(h == real or h.startswith(real.rstrip("/") + "/") for h in homes)


def _inside(path: str) -> str:
    """Where a jail has the host's ``path``: there, or below PLACE if that is scratch.
    (A virtual environment works from anywhere; the installation it names in its
    pyvenv.cfg must be where it says, and is, unless it is in scratch space itself.)"""
    return PLACE + path if (path + "/").startswith(SCRATCH) else path


def _outermost(paths: list[str]) -> list[str]:
    """Those of ``paths`` (sorted) not inside another of them."""
    kept: list[str] = []
    for path in paths:
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept
