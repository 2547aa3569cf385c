"""One jail kept for one program's runs, one after another (a submission on its test
cases): each run then costs a fork of the jail's init, not a new jail. The sandbox keeps
each run fresh inside it (scratch space renewed when a run changed it, leftover processes
killed, memory peak per run); the jail's binds, working directory and memory limit are
the program's, fixed when it opens. Jails are lean where the sandbox offers it (as the
grader's): runs go straight to the jail's init, past the sandbox server."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Generic, TypeVar

from problemtools_py.judge.compile import WORK_DIR, Executable
from problemtools_py.judge.execute import run_program
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.pool import SandboxPool
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits, RunResult, SandboxError

T = TypeVar("T")

# Every held jail is a lean session (its runs go straight to its init, past the server).
# Its init is a fork of the sandbox server (see zygote.serve_forked: cheap to open) for a
# jail of fewer runs than this; from this many, a fresh small interpreter (~45 ms more to
# open, cheaper per run: it has less to fork).
FRESH_INIT_RUNS = 20
# A jail whose program will likely stop early (a submission expected to fail, on a problem
# where the first failure ends its runs: most fail on a sample or the first secret cases)
# serves this many runs with a forked init before it takes a fresh one: an early end then
# starts no interpreter, and a late one pays ~20 ms more than a fresh init at once.
FORKED_FIRST = 8


def worth_fresh_init(runs: float) -> bool:
    """Whether a jail expected to serve ``runs`` runs should have a fresh init."""
    return runs >= FRESH_INIT_RUNS


class HeldJail:
    """Opened at the first run that needs it (runs answered from a cache open nothing);
    reopened when its server was lost; closed by :meth:`close`. Lean where the sandbox
    offers it: its init forked, or (``fresh``) a fresh interpreter; with ``forked_first``,
    that many runs with a forked init first (see FRESH_INIT_RUNS, FORKED_FIRST)."""

    def __init__(
        self,
        pool: SandboxPool,
        exe: Executable,
        limits: Limits,
        binds: Sequence[Bind] = (),
        fresh: bool = False,
        forked_first: int = 0,
        cwd: str = WORK_DIR,
    ) -> None:
        self.pool = pool
        self.cwd = cwd  # where its runs run (a submission's: see Executable.cwd)
        self.exe = exe
        self.fresh = fresh
        self.forked_first = forked_first if fresh else 0
        self.runs = 0  # made in it so far
        self._fresh_open = False  # the kind open now: a fresh init (True) or a forked one
        self.limits = limits  # the session's: its memory (with the program's extra) counts
        self.binds = [*exe.binds(), *binds]
        self._stack: ExitStack | None = None
        self._box: Sandbox | None = None
        self._fast = False  # Python runs in the jail's own interpreter

    def box(self) -> Sandbox:
        fresh = self.fresh and self.runs >= self.forked_first  # (else its init is forked)
        if self._box is not None and (not self._box.alive or self._fresh_open != fresh):
            self.close()
        if self._box is None:
            stack = ExitStack()
            try:
                box = stack.enter_context(self.pool.sandbox())
                self._fast = self.exe.inprocess and box.python_matches()
                session = box.session(
                    limits=self.limits,
                    binds=self.binds,
                    inprocess=self._fast,
                    lean=True,
                    forked=not fresh,
                    cwd=self.cwd,
                )
                stack.enter_context(session)
            except BaseException:
                stack.close()
                raise
            self._stack, self._box, self._fresh_open = stack, box, fresh
        return self._box

    def run(
        self,
        args: Sequence[str] = (),
        *,
        limits: Limits,
        stdin: Path,
        stdout: Path | None = None,
        memory_mb: int | None = None,
    ) -> RunResult:
        """One run of the program (with ``args``) in the jail, ``stdin`` a regular file;
        its output goes to ``stdout`` when given, else into the result. ``memory_mb``:
        what the program is told (the JVM's heap). The limits' memory is the jail's. A
        jail that fails is rebuilt, never reused, and the run made once more."""
        try:
            result = self._run(args, limits, stdin, stdout, memory_mb)
        except SandboxError:
            self._discard()
            result = self._run(args, limits, stdin, stdout, memory_mb)
        self.runs += 1
        return result

    def _discard(self) -> None:
        """Give up a jail that failed (the next run opens another)."""
        self.close()

    def _run(
        self,
        args: Sequence[str],
        limits: Limits,
        stdin: Path,
        stdout: Path | None,
        memory_mb: int | None,
    ) -> RunResult:
        box = self.box()
        if not box.lean_open:
            return run_program(
                box,
                self.exe,
                args,
                limits=limits,
                memory_mb=memory_mb,
                stdin=stdin,
                stdout=stdout,
                cwd=self.cwd,
            )
        argv = [*self.exe.argv(memory_mb or limits.memory_bytes >> 20), *args]
        main = self.exe.inprocess_main() if self._fast else None
        fd = os.open(stdin, os.O_RDONLY | os.O_CLOEXEC)
        try:
            run = box.run_lean(argv, limits=limits, stdin=fd, inprocess=main)
        finally:
            os.close(fd)
        if stdout is None:
            return run
        stdout.write_bytes(run.stdout)  # (as a run into a file: counted, not kept)
        return replace(run, stdout=b"")

    def close(self) -> None:
        stack, self._stack, self._box = self._stack, None, None
        if stack is not None:
            with contextlib.suppress(SandboxError):  # (its server is gone: so is the jail)
                stack.close()

    def __enter__(self) -> HeldJail:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Lent(Generic[T]):
    """Held jails lent to the threads that run jobs at a time: a thread takes one for a run
    and gives it back, so there are never more than the threads running at once, and one
    series of runs after another (validation, then junk inputs) reuses the same jails."""

    def __init__(self) -> None:
        self._free: dict[str, list[T]] = {}
        self._all: list[T] = []
        self._lock = threading.Lock()

    @contextmanager
    def take(self, key: str, make: Callable[[], T]) -> Iterator[T]:
        with self._lock:
            free = self._free.setdefault(key, [])
            item = free.pop() if free else None
        if item is None:
            item = make()
            with self._lock:
                self._all.append(item)
        try:
            yield item
        finally:
            with self._lock:
                free.append(item)

    def items(self) -> list[T]:
        """Every one made (for closing, once the runs are over)."""
        with self._lock:
            found, self._all, self._free = self._all, [], {}
        return found


class HeldJails:
    """Held jails for a program's runs spread over threads (validators on many inputs,
    ``jobs`` at a time): each run takes a free one of the program's (see Lent)."""

    def __init__(self, pool: SandboxPool, limits: Limits, fresh: bool = False) -> None:
        self.pool = pool
        self.limits = limits
        self.fresh = fresh
        self._lent: Lent[HeldJail] = Lent()

    def take(self, exe: Executable) -> contextlib.AbstractContextManager[HeldJail]:
        return self._lent.take(
            str(exe.directory), lambda: HeldJail(self.pool, exe, self.limits, fresh=self.fresh)
        )

    def close(self) -> None:
        for jail in self._lent.items():
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
        self,
        pool: SandboxPool,
        exe: Executable,
        limits: Limits,
        data: Path,
        work: Path,
        fresh: bool = False,
        forked_first: int = 0,
    ) -> None:
        self.roots = ((str(data.resolve()), "/data"), (str(work.resolve()), "/judge"))
        binds = [Bind(self.roots[0][0], "/data"), Bind(self.roots[1][0], "/judge", True)]
        self.jail = HeldJail(pool, exe, limits, binds, fresh, forked_first)
        self._real: dict[str, str] = {}  # a directory -> its resolved path (see _resolved)

    def inside(self, *paths: Path) -> list[str] | None:
        """Each path as the jail sees it, or None when one lies outside both roots."""
        found = []
        for path in paths:
            raw = os.fspath(path)
            lexical = os.path.isabs(raw) and ".." not in raw.split("/")
            real = self._resolved(os.path.normpath(raw)) if lexical else os.path.realpath(raw)
            for root, target in self.roots:
                if real.startswith(root + "/"):
                    found.append(f"{target}/{real[len(root) + 1 :]}")
                    break
            else:
                return None
        return found

    def _resolved(self, path: str) -> str:
        """``os.path.realpath(path)`` of an absolute path without ``..``, with the answers for
        its directories kept: a run's files share most of theirs (the data directories, the
        work directory), and realpath costs an lstat per component, ~1,200 times on a
        package of 120 cases. The directories are the package's and the judge's, which no
        program can change (read-only, or root's); a link among them is still followed."""
        known = self._real.get(path)
        if known is not None:
            return known
        parent, name = os.path.split(path)
        if not name or os.path.islink(path):
            return os.path.realpath(path)
        real = os.path.join(self._resolved(parent), name)
        if os.path.isdir(real):  # (only directories are kept: files come and go)
            self._real[path] = real
        return real

    def __enter__(self) -> HeldValidator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.jail.close()
