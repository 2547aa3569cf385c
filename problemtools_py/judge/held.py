"""One jail kept for one program's runs, one after another (a submission on its test
cases): each run then costs a fork of the jail's init, not a new jail. The sandbox keeps
each run fresh inside it (scratch space renewed when a run changed it, leftover processes
killed, memory peak per run); the jail's binds, working directory and memory limit are
the program's, fixed when it opens."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from problemtools_py.judge.compile import Executable
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits, SandboxError


class HeldJail:
    """Opened at the first run that needs it (runs answered from a cache open nothing);
    reopened when its server was lost; closed by :meth:`close`."""

    def __init__(
        self, pool: SandboxPool, exe: Executable, limits: Limits, binds: Sequence[Bind] = ()
    ) -> None:
        self.pool = pool
        self.exe = exe
        self.limits = limits  # the session's: its memory (with the program's extra) counts
        self.binds = [*exe.binds(), *binds]
        self._stack: ExitStack | None = None
        self._box: Sandbox | None = None

    def box(self) -> Sandbox:
        if self._box is not None and not self._box.alive:
            self.close()
        if self._box is None:
            stack = ExitStack()
            try:
                box = stack.enter_context(self.pool.sandbox())
                fast = self.exe.inprocess and box.python_matches()
                stack.enter_context(
                    box.session(limits=self.limits, binds=self.binds, inprocess=fast)
                )
            except BaseException:
                stack.close()
                raise
            self._stack, self._box = stack, box
        return self._box

    def close(self) -> None:
        stack, self._stack, self._box = self._stack, None, None
        if stack is not None:
            with contextlib.suppress(SandboxError):  # (its server is gone: so is the jail)
                stack.close()

    def __enter__(self) -> HeldJail:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class HeldJails:
    """A held jail per program and thread, for runs spread over threads (validators on
    many inputs, ``jobs`` at a time): a thread's runs of one program share its jail."""

    def __init__(self, pool: SandboxPool, limits: Limits) -> None:
        self.pool = pool
        self.limits = limits
        self._jails: dict[tuple[int, str], HeldJail] = {}
        self._lock = threading.Lock()

    def get(self, exe: Executable) -> HeldJail:
        key = (threading.get_ident(), str(exe.directory))
        with self._lock:
            jail = self._jails.get(key)
            if jail is None:
                jail = self._jails[key] = HeldJail(self.pool, exe, self.limits)
        return jail

    def close(self) -> None:
        with self._lock:
            jails, self._jails = list(self._jails.values()), {}
        for jail in jails:
            jail.close()

    def __enter__(self) -> HeldJails:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class HeldValidator:
    """A jail kept for an output validator's runs on one submission's test cases: the
    package's ``data/`` is bound read-only at /data and the judge's work directory for the
    submission (each case's directory, its feedback directory in it) at /judge, so each
    run names its files by path instead of binding them. The work directory's own
    permissions (root's, 0711) leave only the feedback directories writable to it."""

    def __init__(
        self, pool: SandboxPool, exe: Executable, limits: Limits, data: Path, work: Path
    ) -> None:
        self.roots = ((data.resolve(), "/data"), (work.resolve(), "/judge"))
        binds = [Bind(str(self.roots[0][0]), "/data"), Bind(str(self.roots[1][0]), "/judge", True)]
        self.jail = HeldJail(pool, exe, limits, binds)

    def inside(self, *paths: Path) -> list[str] | None:
        """Each path as the jail sees it, or None when one lies outside both roots."""
        found = []
        for path in paths:
            real = path.resolve()
            for root, target in self.roots:
                if real.is_relative_to(root):
                    found.append(f"{target}/{real.relative_to(root).as_posix()}")
                    break
            else:
                return None
        return found

    def __enter__(self) -> HeldValidator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.jail.close()
