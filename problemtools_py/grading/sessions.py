"""A grader's sandbox sessions: each sandbox keeps one jail open, its program directory
(/prog) given each completion's program in turn (see Sessions.session)."""

from __future__ import annotations

import contextlib
import shutil
import threading
from contextlib import AbstractContextManager
from pathlib import Path

from problemtools_py.grading.results import Settings
from problemtools_py.judge.interpreter import find
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits
from problemtools_py.sandbox.spawned import temp_dir


class Sessions:
    """The open session of each sandbox a grader used, and the program it held last."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._sessions: dict[Sandbox, tuple[Path, AbstractContextManager[Sandbox]]] = {}
        self._held: dict[Sandbox, str | None] = {}  # the program each session ran last
        self._memory: dict[Sandbox, int] = {}  # each session's memory limit, MiB

    def close(self) -> None:
        """Every session ends (each jail's end waits on its server: all at once)."""
        with self._lock:
            boxes = list(self._sessions)
        closing = [threading.Thread(target=self.forget, args=(box,)) for box in boxes]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()

    def _close(self, box: Sandbox) -> Path | None:
        """Close the box's session (its close may fail too); its directory, or None."""
        with self._lock:
            found = self._sessions.pop(box, None)
            self._held.pop(box, None)
            self._memory.pop(box, None)
        if found is None:
            return None
        with contextlib.suppress(Exception):
            found[1].__exit__(None, None, None)
        return found[0]

    def forget(self, box: Sandbox) -> None:
        """Drop the box's session and program directory (after a failure, or at the end)."""
        work = self._close(box)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

    def reopen(self, box: Sandbox, memory_mb: int | None = None) -> None:
        """A new session on the same program directory (the old jail failed, or another
        memory limit is asked for)."""
        memory = memory_mb or self._memory.get(box, self.settings.memory_mb)
        work = self._close(box)
        assert work is not None, "reopened a sandbox that had no session"
        self._open(box, work, memory)

    def memory_mb(self, box: Sandbox) -> int:
        """The memory limit of the box's session (MiB)."""
        return self._memory.get(box, self.settings.memory_mb)

    def session(
        self, box: Sandbox, program: str | None = None, memory_mb: int | None = None
    ) -> Path:
        """Each sandbox keeps one jail open for every completion it grades (its program
        directory, /prog, gets each one's code in turn), but nothing of one completion is
        in another's reach: unless the program is the one it held last (rollouts often
        repeat), a lean session's next run goes to a new fork of its init (see
        sandbox.renewal), and a session without a lean init is opened anew. The memory
        limit is the session's: another (``memory_mb``) opens it anew."""
        memory = memory_mb or self.settings.memory_mb
        with self._lock:
            found = self._sessions.get(box)
            held, self._held[box] = self._held.get(box), program
        if found is not None:
            if memory != self.memory_mb(box):
                self.reopen(box, memory)
            elif program is None or held != program:
                box.renew_lean() if box.lean_open else self.reopen(box)
            return found[0]
        work = Path(temp_dir("grade"))  # (named by this process: see sandbox.spawned)
        work.chmod(0o755)
        self._open(box, work, memory)
        return work

    def binds(self, work: Path) -> list[Bind]:
        """A session's binds: the program directory ``work`` as /prog, and the files of
        the Python the settings name (if any)."""
        python = self.settings.python
        tools = find(python).binds if python is not None else ()
        return [Bind(str(work), "/prog"), *(Bind(host, jail) for host, jail in tools)]

    def _open(self, box: Sandbox, work: Path, memory_mb: int) -> None:
        """A session on ``work``; when none opens (its server is lost), ``work`` goes."""
        try:
            session = box.session(
                limits=Limits(60.0, memory_mb << 20),
                binds=self.binds(work),
                inprocess=box.python_matches(),
                lean=box.python_matches(),
            )
            session.__enter__()
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        with self._lock:
            self._sessions[box] = (work, session)
            self._memory[box] = memory_mb
