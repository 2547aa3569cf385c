"""A run's counters as a jail sees them: the session cgroup's files (CPU time, peak
memory, OOM kills, refused tasks) read from descriptors opened before the jail's root was
built, and how long a program waited, runnable, for a CPU (its scheduler statistics).
Standard library only: a lean session's init (see :mod:`zygote`) imports it inside the
jail, and the host's side (:mod:`cgroups`) reads the same files by path."""

from __future__ import annotations

import os

from problemtools_py.sandbox.protocol import Reply


def queued_seconds(pid: int) -> float | None:
    """How long the process has waited, runnable, for a CPU (its scheduler statistics):
    large when the machine starved it, next to nothing when it slept. The statistics
    count a wait when it ends, so a wait still going on (a program that never got the
    CPU back before the wall clock stopped it) is added: see pending_wait."""
    try:
        with open(f"/proc/{pid}/schedstat", "rb") as handle:
            waited = int(handle.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None
    pending = pending_wait(pid)
    return None if pending is None else waited + pending


def pending_wait(pid: int) -> float | None:
    """How long a runnable process has waited since it last ran (0 when it sleeps or is
    gone; None, unknown, when it never ran): now, as this thread's last start on a CPU,
    less its own (both ``se.exec_start`` of /proc/.../sched, in ms). Only on the CPU
    this thread runs on (a program's lean init shares its core): each CPU's scheduler
    clock leaves out that CPU's own steal and interrupt time, so two CPUs' clocks are
    not comparable."""
    try:
        state, cpu = _state_and_cpu(f"/proc/{pid}/stat")
        if state != b"R" or cpu != _state_and_cpu("/proc/thread-self/stat")[1]:
            return 0.0
        since = _exec_start(f"/proc/{pid}/sched")
        now = _exec_start("/proc/thread-self/sched")
    except (OSError, ValueError, IndexError):
        return 0.0
    return None if since == 0 else max(0.0, (now - since) / 1e3)


def _state_and_cpu(path: str) -> tuple[bytes, int]:
    """A task's state letter and the CPU it last ran on (fields 3 and 39 of its stat)."""
    with open(path, "rb") as handle:
        fields = handle.read().rsplit(b")", 1)[1].split()
    return fields[0], int(fields[36])


def _exec_start(path: str) -> float:
    with open(path, "rb") as handle:
        for line in handle.read().splitlines():
            if line.startswith(b"se.exec_start"):
                return float(line.split(b":", 1)[1])
    raise ValueError(f"{path}: no se.exec_start")


def counter(text: str, key: str | None = None) -> int:
    """The number in a cgroup file's text: its first word, or the value on the line
    ``key value`` (0 when absent)."""
    if key is None:
        return int(text.split()[0]) if text.strip() else 0
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == key:
            return int(parts[1])
    return 0


def open_counters(files: dict[str, tuple[str, str | None]]) -> dict[str, tuple[int, str | None]]:
    """The counter files (see cgroups.RunGroup.counter_files) opened for :class:`Stats`,
    by a jail's init before it leaves the host's file system."""
    fds: dict[str, tuple[int, str | None]] = {}
    for name, (path, key) in files.items():
        try:
            fds[name] = (os.open(path, os.O_RDWR if name == "peak" else os.O_RDONLY), key)
        except OSError:
            pass
    return fds


class Stats:
    """The session cgroup's counters, from files opened before the jail's root was built:
    name -> (descriptor, key within the file or None)."""

    def __init__(self, fds: dict[str, tuple[int, str | None]]) -> None:
        self.fds = fds
        # CPU seconds, OOM kills and refused tasks so far: nothing runs between two runs,
        # so what one run ended with is what the next one starts from (fewer reads a run)
        self.counts = self.now()

    def now(self) -> tuple[float, int, int]:
        return self.cpu(), self.oom(), self._read("full")

    def reply(
        self,
        before: tuple[float, int, int],
        status: int,
        times: tuple[float, float],
        killed: str | None,
        queued: float | None,
    ) -> Reply:
        """A run's accounting from the counters it started with (``before``) and ended
        with (``counts``, read since), its wait status, start and end, and its stop."""
        code_or_signal = os.waitstatus_to_exitcode(status)
        start, ended = times
        return Reply(
            exit_code=code_or_signal if code_or_signal >= 0 else None,
            signal=-code_or_signal if code_or_signal < 0 else None,
            cpu_seconds=self.counts[0] - before[0],
            wall_seconds=ended - start,
            ended=ended,
            peak_memory_bytes=self.peak(),
            oom=self.counts[1] > before[1],
            killed_for=killed,
            queued_seconds=queued,
            tasks_full=self.counts[2] > before[2],
        )

    def _read(self, name: str) -> int:
        if name not in self.fds:
            return 0
        fd, key = self.fds[name]
        try:
            text = os.pread(fd, 1 << 14, 0).decode()
        except OSError:
            return 0
        return counter(text, key)

    def cpu(self) -> float:
        if "cpu_usec" in self.fds:
            return self._read("cpu_usec") / 1e6
        return self._read("cpu_nsec") / 1e9

    def peak(self) -> int:
        return self._read("peak")

    def oom(self) -> int:
        return self._read("oom")

    def remaining(self) -> bool:
        """Whether any process of a program is left (when unsure: yes): the cgroup counts
        every one, zombies included, until it is reaped. Asked instead of killing every
        time, which raises (ProcessLookupError) when there is nothing to kill."""
        if "tasks" not in self.fds:
            return True
        try:
            return os.pread(self.fds["tasks"][0], 64, 0).strip() != b"0"
        except OSError:
            return True

    def reset_peak(self) -> None:
        if "peak" in self.fds:
            try:
                os.pwrite(self.fds["peak"][0], b"0", 0)
            except OSError:
                pass
