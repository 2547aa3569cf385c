"""Per-run control groups (v1 or v2): memory limit and peak, CPU time of every process,
a task limit, OOM detection, and where they have the controllers, a CPU weight of their
own (a program of many threads or processes competes as one) and a ``cpuset`` (the core
its grader leased, see :mod:`cores`: ``sched_setaffinity`` cannot leave it). Used by
the sandbox server, which runs as root."""

from __future__ import annotations

import contextlib
import functools
import os
import time
from pathlib import Path

from problemtools_py.sandbox.counters import counter, queued_seconds

V1_CONTROLLERS = ("memory", "pids", "cpuacct")
V1_OPTIONAL = ("cpu", "cpuset")  # a weight and cores of its own, where mounted

TYPE_CHECKING = False  # (not typing's: the sandbox's modules import no more than they use)
if TYPE_CHECKING:
    from collections.abc import Callable


def _mounts() -> list[tuple[str, str, str, str]]:
    """(mount point, root inside the hierarchy, fs type, super options) of cgroup mounts."""
    found = []
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            left, _, right = line.partition(" - ")
            fields, rfields = left.split(), right.split()
            if rfields and rfields[0] in ("cgroup", "cgroup2"):
                found.append((fields[4], fields[3], rfields[0], rfields[-1]))
    return found


def _own_paths() -> dict[str, str]:
    """Controller (or "" for v2) -> this process's cgroup path."""
    paths: dict[str, str] = {}
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        for line in handle:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for controller in controllers.split(",") if controllers else [""]:
                paths[controller] = path
    return paths


def _under(mount: str, root: str, path: str) -> Path | None:
    if root != "/" and not (path == root or path.startswith(root + "/")):
        return None
    rel = path[len(root) :] if root != "/" else path
    return Path(mount + rel)


def _write(path: Path, value: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def _read_int(path: Path, key: str | None = None) -> int:
    """A number from a cgroup file (read with three system calls: this runs several
    times per test)."""
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            text = os.read(fd, 1 << 16).decode()
        finally:
            os.close(fd)
    except OSError:
        return 0
    return counter(text, key)


class RunGroup:
    """The cgroup directories of one run (one per v1 controller, or one v2 directory)."""

    def __init__(self, dirs: dict[str, Path], v2: bool, all_cpus: str | None = None) -> None:
        self.dirs = dirs  # controller ("" for v2) -> directory
        self.v2 = v2
        self.all_cpus = all_cpus  # the cores when none is named (None: no cpuset here)
        self._cpus = all_cpus  # as last written

    @property
    def cpus_path(self) -> str | None:
        """The file naming the cores the run's programs may use (None: no cpuset)."""
        if self.all_cpus is None:
            return None
        return str(self.dirs["" if self.v2 else "cpuset"] / "cpuset.cpus")

    def cpuset(self) -> tuple[str, str] | None:
        """(the cpuset file, every core) for a lean init to write (see inside.pin)."""
        path = self.cpus_path
        return (path, self.all_cpus) if path is not None and self.all_cpus else None

    def confine(self, core: int | None) -> None:
        """Let the run's programs use ``core`` only (the one their grader leased, see
        cores), or every core of the server when None; written only when it changes,
        and between runs (the group holds no task). A core the machine refuses leaves
        the pinning of the program's affinity, which it could widen."""
        wanted = str(core) if core is not None else self.all_cpus
        path = self.cpus_path
        if path is None or wanted is None or wanted == self._cpus:
            return
        try:
            _write(Path(path), wanted)
            self._cpus = wanted
        except OSError:
            pass

    def join_paths(self) -> list[str]:
        """The files a forked child writes "0" into to join the run's groups: on v1 each
        group's ``tasks``, which moves only the writing thread (all there is of a child
        just forked, which writes before it starts any), where ``cgroup.procs`` moves a
        whole thread group under a system-wide lock whose first taker after a quiet
        spell waits out an RCU grace period: 5-15 ms of every jail's start, with every
        fork on the machine stalled behind it. v2 has no such file for a domain group."""
        name = "cgroup.procs" if self.v2 else "tasks"
        return [str(d / name) for c, d in self.dirs.items() if c != "cpuset"]

    def init_join_paths(self) -> list[str]:
        """The files the session's init writes "0" into, its programs joining with it
        when they are forked: v1's cpuset, which counts nothing (a program joining it
        itself cost 55 us a run)."""
        return [str(self.dirs["cpuset"] / "tasks")] if "cpuset" in self.dirs else []

    @functools.cached_property
    def counter_files(self) -> dict[str, tuple[str, str | None]]:
        """The run's counters: name -> (file, key within it or None). Read here by path,
        and by a lean jail's init from descriptors opened before it left the host's file
        system (see counters.Stats)."""
        if self.v2:
            d = self.dirs[""]
            return {
                "cpu_usec": (str(d / "cpu.stat"), "usage_usec"),
                "peak": (str(d / "memory.peak"), None),
                "oom": (str(d / "memory.events"), "oom_kill"),
                "tasks": (str(d / "pids.current"), None),
                "full": (str(d / "pids.events"), "max"),
            }
        return {
            "cpu_nsec": (str(self.dirs["cpuacct"] / "cpuacct.usage"), None),
            "peak": (str(self.dirs["memory"] / "memory.max_usage_in_bytes"), None),
            "oom": (str(self.dirs["memory"] / "memory.oom_control"), "oom_kill"),
            "tasks": (str(self.dirs["pids"] / "pids.current"), None),
            "full": (str(self.dirs["pids"] / "pids.events"), "max"),
        }

    def _counter(self, name: str) -> int:
        path, key = self.counter_files[name]
        return _read_int(Path(path), key)

    def cpu_seconds(self) -> float:
        return self._counter("cpu_usec") / 1e6 if self.v2 else self._counter("cpu_nsec") / 1e9

    def peak_memory(self) -> int:
        return self._counter("peak")

    def queued_seconds(self) -> float | None:
        """How long the run's threads have waited, runnable, for a CPU (their scheduler
        statistics, summed): large when the machine starved the run, next to nothing when
        it slept. None when it holds no thread or they cannot be read."""
        listing = self.dirs[""] / "cgroup.threads" if self.v2 else self.dirs["pids"] / "tasks"
        try:
            threads = listing.read_text().split()
        except OSError:
            return None
        waits = [queued_seconds(int(tid)) for tid in threads]  # (None: it ended meanwhile)
        known = [wait for wait in waits if wait is not None]
        return sum(known) if known else None

    def oom_kills(self) -> int:
        return self._counter("oom")

    def task_limit_hits(self) -> int:
        """How often a fork or a new thread failed at the group's task limit."""
        return self._counter("full")

    def reset_peak(self) -> None:
        """Start measuring peak memory afresh (v1; v2 on kernels that allow it)."""
        with contextlib.suppress(OSError):
            _write(Path(self.counter_files["peak"][0]), "0")

    def remove(self) -> None:
        for _ in range(200):
            if all(self._rmdir(d) for d in self.dirs.values()):
                return
            time.sleep(0.005)

    @staticmethod
    def _rmdir(directory: Path) -> bool:
        try:
            directory.rmdir()
        except FileNotFoundError:
            return True
        except OSError:
            return False
        return True


class Cgroups:
    """Creates per-run groups below this process's own cgroup."""

    def __init__(self, bases: dict[str, Path], v2: bool) -> None:
        self.bases = bases
        self.v2 = v2
        self.counter = 0
        self.cpuset = _cpuset_of(bases, v2)  # (the base's cpus and memory nodes, or None)

    @classmethod
    def detect(cls) -> tuple[Cgroups | None, str]:
        """The usable cgroup setup, or None and why not."""
        if os.geteuid() != 0:
            return None, "not root"
        try:
            mounts, own = _mounts(), _own_paths()
        except OSError as exc:
            return None, f"cannot read cgroup information: {exc}"
        v1 = cls._detect_v1(mounts, own)
        if v1 is not None:
            return v1, ""
        return cls._detect_v2(mounts, own)

    @classmethod
    def _detect_v1(
        cls, mounts: list[tuple[str, str, str, str]], own: dict[str, str]
    ) -> Cgroups | None:
        bases: dict[str, Path] = {}
        for point, root, fstype, options in mounts:
            if fstype != "cgroup":
                continue
            for controller in V1_CONTROLLERS + V1_OPTIONAL:
                if controller in options.split(",") and controller in own:
                    base = _under(point, root, own[controller])
                    if base is not None and os.access(base, os.W_OK):
                        bases.setdefault(controller, base)
        return cls(bases, False) if set(V1_CONTROLLERS) <= set(bases) else None

    @classmethod
    def _detect_v2(
        cls, mounts: list[tuple[str, str, str, str]], own: dict[str, str]
    ) -> tuple[Cgroups | None, str]:
        for point, root, fstype, _ in mounts:
            if fstype != "cgroup2" or "" not in own:
                continue
            base = _under(point, root, own[""])
            if base is None:
                continue
            try:
                controllers = (base / "cgroup.controllers").read_text().split()
            except OSError:
                continue
            if not {"memory", "pids", "cpu"} <= set(controllers):
                continue
            return cls._delegate_v2(base, controllers)
        return None, "no writable cgroup with memory, pids and CPU controllers"

    @classmethod
    def _delegate_v2(cls, base: Path, controllers: list[str]) -> tuple[Cgroups | None, str]:
        """Move this process into a leaf so that its cgroup may enable controllers below."""
        mine = base / f"ptpy-{os.getpid()}"
        try:
            (mine / "server").mkdir(parents=True, exist_ok=True)
            try:
                _write(base / "cgroup.subtree_control", "+memory +pids +cpu")
            except OSError:
                _write(base / f"ptpy-{os.getpid()}" / "server" / "cgroup.procs", "0")
            _write(mine / "cgroup.subtree_control", "+memory +pids +cpu")
            if "cpuset" in controllers:  # (cores of its own: wanted, not needed)
                with contextlib.suppress(OSError):
                    _write(base / "cgroup.subtree_control", "+cpuset")
                    _write(mine / "cgroup.subtree_control", "+cpuset")
        except OSError as exc:
            return None, f"cgroup v2 delegation failed: {exc}"
        return cls({"": mine}, True), ""

    def remove_left(self, pid: int) -> bool:
        """Remove the groups the server with ``pid`` made (``ptpy-PID-N``) and left: it
        was killed, or its judge's end came mid-run. A group still holding a process stays
        (its end follows the jail's). True when none is left."""
        left = False
        for base in self.bases.values():
            for directory in base.glob(f"ptpy-{pid}-*"):
                left |= not RunGroup._rmdir(directory)
        return not left

    def remove_dead(self, running: Callable[[int], bool]) -> None:
        """Remove the groups of servers that run no more (``ptpy-PID-N``, and v2's
        ``ptpy-PID`` with what it holds of them): killed, with no spawner to reap them. A
        group still holding a process stays."""
        for base in self.bases.values():
            for directory in _dead_groups(base, running):
                if _group_pid(directory.name) is None:  # (v2: ptpy-PID, its leaf first)
                    for inner in [directory / "server", *_dead_groups(directory, running)]:
                        RunGroup._rmdir(inner)
                RunGroup._rmdir(directory)

    def create(self, memory_bytes: int, tasks: int) -> RunGroup:
        self.counter += 1
        name = f"ptpy-{os.getpid()}-{self.counter}"
        dirs = {controller: base / name for controller, base in self.bases.items()}
        for directory in dirs.values():
            directory.mkdir(exist_ok=True)
        group = RunGroup(dirs, self.v2, self.cpuset[0] if self.cpuset else None)
        if self.cpuset is not None and not self.v2:  # (v1: empty until written)
            _write(dirs["cpuset"] / "cpuset.mems", self.cpuset[1])
            _write(dirs["cpuset"] / "cpuset.cpus", self.cpuset[0])
        if self.v2:
            d = dirs[""]
            _write(d / "memory.max", str(memory_bytes))
            _write(d / "memory.swap.max", "0")
            _write(d / "pids.max", str(tasks))
        else:
            _write(dirs["memory"] / "memory.limit_in_bytes", str(memory_bytes))
            # Without swap accounting (no memsw file) swap is not limited separately.
            with contextlib.suppress(OSError):
                _write(dirs["memory"] / "memory.memsw.limit_in_bytes", str(memory_bytes))
            _write(dirs["pids"] / "pids.max", str(tasks))
        return group


def _cpuset_of(bases: dict[str, Path], v2: bool) -> tuple[str, str] | None:
    """The cores and memory nodes a run group starts with (its parent's), where runs can
    have a cpuset of their own; else None."""
    base = bases.get("" if v2 else "cpuset")
    if base is None:
        return None
    try:
        if v2 and "cpuset" not in (base / "cgroup.subtree_control").read_text().split():
            return None
        cpus = (base / "cpuset.cpus.effective" if v2 else base / "cpuset.cpus").read_text()
        mems = (base / "cpuset.mems.effective" if v2 else base / "cpuset.mems").read_text()
    except OSError:
        return None
    return (cpus.strip(), mems.strip()) if cpus.strip() else None


def _group_pid(name: str) -> int | None:
    """The server of a run group's name, ``ptpy-PID-N``."""
    parts = name.split("-")
    if len(parts) == 3 and parts[0] == "ptpy" and parts[1].isdigit() and parts[2].isdigit():
        return int(parts[1])
    return None


def _dead_groups(base: Path, running: Callable[[int], bool]) -> list[Path]:
    """The groups below ``base`` of servers that run no more: ``ptpy-PID-N``, and
    ``ptpy-PID`` (a v2 server's own, see _delegate_v2)."""
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(base):
            name = entry.name
            pid = _group_pid(name)
            if pid is None and name.startswith("ptpy-") and name[5:].isdigit():
                pid = int(name[5:])
            if pid is not None and entry.is_dir(follow_symlinks=False) and not running(pid):
                found.append(Path(entry.path))
    return found
