"""What isolation a sandbox server can give, found once when it starts: namespaces,
cgroups, a user of its own (:mod:`identity`), and a run in a jail that shows they work.
As root it is full isolation or nothing (issue 40: a failed probe used to leave a server
running programs as root, unjailed)."""

from __future__ import annotations

import os
import shutil
import sys
import time

from problemtools_py.sandbox import identity, syscalls
from problemtools_py.sandbox.cgroups import Cgroups
from problemtools_py.sandbox.protocol import ENV, NO_ISOLATION, Request

TYPE_CHECKING = False  # (not typing's: the sandbox server imports no more than it uses)
if TYPE_CHECKING:
    from typing import Any, Protocol

    class Server(Protocol):
        """What the probe asks of a sandbox server (server.Server)."""

        mode: Mode
        jail_python: tuple[int, int] | None

        def run(self, req: Request, stdin_fd: int, stdout_fd: int) -> dict[str, Any]: ...


PROBE_RETRIES = (0.2, 0.5)  # seconds before each further probe of a root server's isolation


class Mode:
    """What isolation this server can give. (No dataclasses in the sandbox: importing them
    costs every server 5 ms of its start.)"""

    def __init__(self) -> None:
        self.namespaces = False
        self.cgroups: Cgroups | None = None
        self.missing: list[str] = []
        self.refused = False  # as root, full isolation could not be had: nothing runs

    @property
    def label(self) -> str:
        if not self.missing:
            return "full"
        return ("refused" if self.refused else "partial") + ": no " + ", no ".join(self.missing)


def _strict() -> bool:
    return os.geteuid() == 0 and not os.environ.get(NO_ISOLATION)


def probe(server: Server) -> Mode:
    """What isolation ``server`` gives. As root it is full or nothing: a probe that finds
    less (a namespace call refused, the machine's open-file table full for a moment, no
    free sandbox user) is tried again, then the server refuses to run anything (the judge
    says why). Less than full only where the user asked for it
    (PROBLEMTOOLS_PY_NO_ISOLATION) or where no more can be had (not root)."""
    server.mode = mode = Mode()
    _probe_once(server)
    for delay in PROBE_RETRIES if _strict() else ():
        if not mode.missing:
            return mode
        time.sleep(delay)
        server.mode = mode = Mode()
        _probe_once(server)
    mode.refused = _strict() and bool(mode.missing)
    return mode


def spawned_mode(maker: Mode) -> Mode:
    """The mode of a server forked from one that probed: the same, once it has a user of
    its own (the maker, which runs nothing, holds none); without one, refused."""
    if not maker.namespaces:
        return maker
    try:
        identity.acquire()
    except OSError as exc:
        mode = Mode()
        mode.missing, mode.refused = [f"user of its own ({exc})"], True
        return mode
    return maker


def _probe_once(server: Server) -> None:
    mode = server.mode
    if os.environ.get(NO_ISOLATION):
        mode.missing = ["isolation (turned off on request: resource limits only)"]
        return
    if os.geteuid() != 0:
        mode.missing = [
            "root (programs run with resource limits only: no network, file "
            "system or process isolation)"
        ]
        return
    try:
        identity.acquire()
    except OSError as exc:
        mode.missing.append(f"user of its own ({exc})")
        return
    try:
        syscalls.unshare(syscalls.CLONE_NEWNET)
    except OSError as exc:
        mode.missing.append(f"network namespace ({exc.strerror})")
    mode.cgroups, why = Cgroups.detect()
    if mode.cgroups is None:
        mode.missing.append(f"cgroups ({why}; memory limited by address space)")
    mode.namespaces = True
    _jail_run(server)


def _jail_run(server: Server) -> None:
    """One run in a jail tells whether jails work, and which python3 runs there (whether
    Python programs may run in this server's interpreter: see Sandbox.python_matches).
    When this server is the python3 a jail's PATH finds (the same file: the jail binds
    those directories), `true` does for the first, and the answer is this version."""
    mode = server.mode
    found = shutil.which("python3", path=ENV["PATH"])
    mine = found is not None and os.path.realpath(found) == os.path.realpath(sys.executable)
    version = ("python3", "-S", "-c", "import sys; print(*sys.version_info[:2])")
    argv = ("true",) if mine else version
    null_in = os.open(os.devnull, os.O_RDONLY)
    out_r, out_w = os.pipe()
    request = Request(argv, 5, 10, 256 << 20, 1 << 20, tasks=16, file_bytes=1 << 20)
    reply = server.run(request, null_in, out_w)
    said = os.read(out_r, 64).split()
    os.close(out_r)
    if "error" in reply:
        mode.namespaces = False
        mode.missing.append(f"namespaces ({reply['error']})")
    elif mine:
        server.jail_python = (sys.version_info[0], sys.version_info[1])
    elif reply.get("exit_code") == 0 and len(said) == 2 and all(w.isdigit() for w in said):
        server.jail_python = (int(said[0]), int(said[1]))
