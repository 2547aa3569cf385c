"""The limits of one run and what it came to, before any output is judged."""

from __future__ import annotations

import enum
import signal
import threading
from dataclasses import dataclass

from problemtools_py.sandbox.protocol import TASKS, Reply, reply_from_wire

TYPE_CHECKING = False  # (not typing's: the sandbox server imports no more than it uses)
if TYPE_CHECKING:
    from typing import Any


class SandboxError(Exception):
    """The sandbox could not run the program at all (setup failed, not found, crashed)."""


class Outcome(enum.Enum):
    """How a run ended, before any output is judged."""

    OK = "ok"  # exited with code 0 within every limit
    TLE = "tle"
    MLE = "mle"
    OLE = "ole"
    RTE = "rte"


@dataclass(frozen=True)
class Limits:
    """Limits of one run. ``wall_seconds`` defaults to a backstop of 2 x CPU + 1 s."""

    cpu_seconds: float = 10.0
    memory_bytes: int = 2 << 30
    output_bytes: int = 8 << 20
    wall_seconds: float | None = None
    processes: int = TASKS  # processes and threads at once (a JVM needs a few dozen)
    file_bytes: int = 64 << 20  # largest file a run may write; its scratch space
    stderr_bytes: int = 64 << 10  # kept for messages; the rest is read and dropped
    # Past output_bytes, stdout is read and dropped and the run goes on (SandboxFusion's
    # truncation), instead of ending it as over the output limit.
    truncate_output: bool = False
    # RLIMIT_STACK unlimited for the program (DOMjudge's runguard: its main thread's stack
    # grows to the memory limit, and glibc gives new threads 2 MiB), not protocol.STACK
    unlimited_stack: bool = False

    @property
    def wall(self) -> float:
        return self.wall_seconds if self.wall_seconds is not None else 2 * self.cpu_seconds + 1


# The CPU time of every run this process has had measured, programs of every kind
# (compilers, validators, submissions): the work a verification's floor counts (bench/).
_SPENT = [0.0]
_SPENT_LOCK = threading.Lock()


def spent_cpu() -> float:
    """Seconds of CPU every run so far took (user + system of all its processes)."""
    with _SPENT_LOCK:
        return _SPENT[0]


@dataclass(frozen=True)
class RunResult:
    """How one run ended: its outcome, times, memory, output and the stderr it kept."""

    outcome: Outcome
    exit_code: int | None  # None when killed by a signal
    signal: int | None
    cpu_seconds: float  # user + sys of every process of the run
    wall_seconds: float
    peak_memory_bytes: int
    output_bytes: int  # bytes the program wrote to stdout (counted up to the limit)
    stdout: bytes = b""  # captured stdout when it was not sent to a file or pipe
    stderr: bytes = b""  # the first Limits.stderr_bytes of stderr
    wall_killed: bool = False  # stopped by the wall-clock backstop
    judge_killed: bool = False  # ended by the judge (an interactive peer was done)
    ended_at: float = 0.0  # time.monotonic() when the program ended (comparable across processes)
    first_closed: str | None = None  # interactive: "own" or "peer" output pipe closed first
    isolation: str = "full"  # "full", or what was missing (see probe.Mode.label)
    queued_seconds: float | None = None  # wall-killed: how long it waited for a CPU, if known
    task_limit: int | None = None  # the limit of tasks it reached, when that ended it (RTE)

    @property
    def starved(self) -> bool:
        """Stopped by the wall clock while under its CPU limit because the machine gave it
        no CPU (it waited, runnable, for most of the time it did not run), not because it
        slept. Unknown waits count as starved: the caller retries rather than blame it."""
        return self.wall_killed and self.crowded

    def starved_under(self, cpu_limit: float) -> bool:
        """Stopped by the wall clock with less than ``cpu_limit`` of CPU used, the machine
        having set its pace (see starved): to run again, not to blame on the program. The
        one place this rule is decided (the grader's retries, verification's cache)."""
        return self.cpu_seconds < cpu_limit and self.starved

    def starved_sharing(self, sharing: int) -> bool:
        """Stopped by its wall-clock limit (no CPU limit: SandboxFusion's runs) with under
        half the fair share of a core ``sharing`` such runs share, while it waited for a
        CPU (see crowded): the machine's load, not its neighbours' fair share, set its
        pace. A loop beside loops gets its share: a timeout, as SandboxFusion says."""
        fair = self.wall_seconds / max(1, sharing)
        return self.wall_killed and self.crowded and self.cpu_seconds < fair / 2

    @property
    def crowded(self) -> bool:
        """Whether it waited, runnable, for a CPU for at least half the time it did not
        run (an unknown wait counts as such): the machine, not the program, set its pace."""
        if self.queued_seconds is None:
            return True
        return self.queued_seconds >= 0.5 * max(0.0, self.wall_seconds - self.cpu_seconds)

    @classmethod
    def from_reply(cls, reply: Reply, limits: Limits, stdout: bytes) -> RunResult:
        """A run's outcome from the accounting the server (or a jail's init) sent back."""
        with _SPENT_LOCK:
            _SPENT[0] += reply.cpu_seconds
        killed = reply.killed_for
        sig, code = reply.signal, reply.exit_code
        over_cpu = killed == "cpu" or reply.cpu_seconds > limits.cpu_seconds or sig == 24  # SIGXCPU
        # A task refused and then no clean end (a crash, or threads waiting for ever for
        # the one that never started): the limit was the cause, not the time it took.
        failed = killed == "wall" or sig is not None or code != 0
        hit = reply.tasks_full and not over_cpu and failed
        if killed == "output":
            outcome = Outcome.OLE
        elif reply.oom:
            outcome = Outcome.MLE
        elif hit:
            outcome = Outcome.RTE
        elif killed == "wall" or over_cpu:
            outcome = Outcome.TLE
        elif sig is not None or code != 0:
            outcome = Outcome.RTE
        else:
            outcome = Outcome.OK
        return cls(
            outcome=outcome,
            exit_code=code,
            signal=sig,
            cpu_seconds=reply.cpu_seconds,
            wall_seconds=reply.wall_seconds,
            peak_memory_bytes=reply.peak_memory_bytes,
            output_bytes=reply.output_bytes,
            stdout=stdout,
            stderr=reply.stderr.encode(),
            wall_killed=killed == "wall",
            judge_killed=killed == "judge",
            ended_at=reply.ended,
            first_closed=reply.first_closed,
            isolation=reply.isolation,
            queued_seconds=reply.queued_seconds,
            task_limit=limits.processes if hit else None,
        )

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.OK

    def error_line(self, width: int = 160) -> str:
        """What the program last said about its failure: the last line of its error output
        that does not start with white space (Python's exception, not the traceback's
        frames; Java's "Exception in thread", not its "at" lines), cut to ``width``; a
        sanitizer's report by its summary (or UBSan's "runtime error" line)."""
        lines = self.stderr.decode(errors="replace").splitlines()
        said = [
            line for line in lines if line.startswith("SUMMARY: ") or ": runtime error: " in line
        ]
        for line in said[:1] or reversed(lines):
            if line.strip() and not line[0].isspace():
                text = "".join(c if c.isprintable() else "?" for c in line.rstrip())
                return text if len(text) <= width else text[: width - 3] + "..."
        return ""

    def describe(self) -> str:
        """A short human description: 'exit code 3', 'signal SIGSEGV', 'CPU 1.20 s'."""
        if self.outcome is Outcome.TLE:
            return f"CPU {self.cpu_seconds:.2f} s" + (
                " (wall-clock backstop)" if self.wall_killed else ""
            )
        if self.outcome is Outcome.MLE:
            return f"memory {self.peak_memory_bytes / 2**20:.0f} MiB"
        if self.outcome is Outcome.OLE:
            return f"output over {self.output_bytes} bytes"
        if self.task_limit is not None:
            ended = "stopped by the wall clock" if self.wall_killed else self._ended()
            return f"reached its limit of {self.task_limit} processes and threads ({ended})"
        return self._ended()

    def _ended(self) -> str:
        if self.signal is not None:
            return f"signal {signal_name(self.signal)}"
        return f"exit code {self.exit_code}"


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def accounting(message: dict[str, Any]) -> Reply:
    """A run's reply; the sandbox's own failure (or a reply it could not have sent) raises."""
    try:
        reply = reply_from_wire(message)
    except TypeError as exc:
        raise SandboxError(f"a malformed reply from the sandbox: {exc}") from exc
    if isinstance(reply, str):
        raise SandboxError(reply)
    return reply
