"""What runs inside a jail once its root is built: the program's own process (limits,
descriptors, user, cgroup, then exec, or the Python main file in process), the init's
clean-up after each run, and the session cgroup's counters. Standard library only (and
:mod:`inprocess`, which is too): a lean session's init (see :mod:`zygote`) imports it inside
the jail."""

from __future__ import annotations

import os
import resource
import signal

from problemtools_py.sandbox import identity, inprocess, seccomp, syscalls
from problemtools_py.sandbox.protocol import STACK
from problemtools_py.sandbox.records import NamedTuple

TYPE_CHECKING = False  # (not typing's: a lean init imports this module, see records)
if TYPE_CHECKING:
    from typing import Any

LEAN_ENVIRON: dict[str, str] = {}  # a lean init's environment (its programs inherit it)
FILTER = seccomp.build_filter()
SCRATCH_INODES = 16384  # files a run may make in each scratch tmpfs: bounds its teardown


class RunFds(NamedTuple):
    """Descriptors of one run, as the program will use them."""

    stdin: int
    stdout: int
    stderr: int
    exec_error: int  # close-on-exec: carries setup failures until exec
    status: int  # the init's report (jail only)


class Setup(NamedTuple):
    """What every run of a session shares."""

    cwd: str
    file_bytes: int
    address_space: int | None  # RLIMIT_AS when there is no memory cgroup
    join: list[int]  # cgroup membership files (open) the program writes itself into
    streams: inprocess.Streams | None = None  # made once for in-process runs (lean)
    scratch: tuple[str, ...] = ()  # the directories given a new tmpfs after every run


# Descriptors per process: with a jail's 256 tasks (protocol.TASKS), at most 131,072 open
# files per sandbox, a twentieth of fs.file-max on this project's 24 GiB machine (issue 40:
# the 20,000 inherited from the judge let one sandbox's 124 processes fill the machine's
# table). Threads share their process's table: 150 threads need no more. leanloop.c: NOFILE.
NOFILE = 512


def set_limits(
    cpu_seconds: float, file_bytes: int, address_space: int | None, unlimited_stack: bool = False
) -> None:
    """Per-process limits: a CPU-time hard stop just above the limit (the server measures
    and kills the whole run first), file size, descriptors, no core dumps, a large stack
    (``unlimited_stack``: none, where the hard limit allows it)."""
    cpu = int(cpu_seconds) + 2
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, NOFILE))
    if address_space is not None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        stack = min(address_space // 2, STACK)
    else:
        stack = STACK
    hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    if unlimited_stack and hard == resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_STACK, (hard, hard))
    elif hard == resource.RLIM_INFINITY or hard >= stack:
        resource.setrlimit(resource.RLIMIT_STACK, (stack, hard))


def program(
    run: dict[str, Any],
    fds: RunFds,
    setup: Setup,
    drop: bool,
    prepared: inprocess.Main | None = None,
) -> None:
    """The program's own process: limits, descriptors, user, cgroup, then exec (or, in
    process, the Python main file: ``prepared`` by the caller once for many runs). The
    caller's process has no-new-privileges set already; it is inherited, and so are its
    signal handlers until exec (an in-process run's parent has none)."""
    # (the init's real-time policy is not inherited: it is set with SCHED_RESET_ON_FORK)
    set_limits(
        float(run["cpu"]), setup.file_bytes, setup.address_space, run.get("unlimited_stack", False)
    )
    os.dup2(fds.stdin, 0)
    os.dup2(fds.stdout, 1)
    os.dup2(fds.stderr, 2)
    if drop:  # in a jail, as its root: into the run's fresh scratch space, as its user
        os.chdir(setup.cwd)  # (its own, in its jail: the init mounted a new one over it)
        os.setgroups([])
        uid, gid = identity.ids()
        os.setgid(gid)
        os.setuid(uid)
    else:  # no jail, so no init that installed the filter for every program
        syscalls.prctl(syscalls.PR_SET_NO_NEW_PRIVS, 1)
        install_filter()
    close_all_but({0, 1, 2, fds.exec_error, *setup.join})
    # Descriptors received over a socket lose close-on-exec: set it again, or the program
    # could write into the setup-error pipe and pass its own crash off as a judge error.
    os.set_inheritable(fds.exec_error, False)
    for fd in setup.join:  # join the cgroup last: only the program itself is measured
        os.write(fd, b"0")
        os.close(fd)
    start(run, fds.exec_error, setup, prepared)


def start(
    run: dict[str, Any],
    exec_error: int,
    setup: Setup,
    prepared: inprocess.Main | None = None,
    installed: bool = False,
) -> None:
    """The program's own process once it is set up (here, or by the C loop of a lean
    init, see leanloop.c): exec, or the Python main file in process (``installed``: the
    init made ``prepared`` this interpreter's ``__main__``, see inprocess.install)."""
    argv, env = run["argv"], run["env"]
    if run.get("inprocess"):
        os.close(exec_error)  # what exec would have done: setup is over
        if env != LEAN_ENVIRON:  # (os.environ's methods are Python: dozens of page faults)
            os.environ.clear()
            os.environ.update(env)
        main = str(run["inprocess"])
        args = inprocess.script_args(list(argv), main)
        os._exit(inprocess.run_main(main, args, prepared, setup.streams, installed))
    # A new program starts with default signal actions: ignored ones survive exec, and
    # Python ignores SIGPIPE and SIGXFSZ, the sandbox server SIGINT, and a judge started by
    # nohup or as a shell's background job SIGHUP, SIGINT and SIGQUIT (a C program writing
    # to a closed pipe, or past the file-size limit, must die of it as anywhere else).
    default_signals()
    os.execvpe(argv[0], list(argv), dict(env))


def default_signals() -> None:
    """Every ignored signal back to its default action (handlers reset on exec anyway)."""
    for number in signal.valid_signals():
        if signal.getsignal(number) is signal.SIG_IGN:
            try:
                signal.signal(number, signal.SIG_DFL)
            except (OSError, ValueError):  # (one the C library keeps for itself)
                pass


def close_all_but(keep: set[int]) -> None:
    low = 3
    for fd in sorted(k for k in keep if k >= 3):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 16)


def write_quietly(fd: int, text: str) -> None:
    try:
        os.write(fd, text.encode()[:4000])
    except OSError:
        pass


def kill_all(*_: object) -> bool:
    """From PID 1: every other process of the namespace; False when there was none (not
    even a zombie: then there is nothing to reap)."""
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        return False
    return True


def reap_all() -> None:
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def install_filter() -> None:
    """Put this process, and everything it will start, under the seccomp filter (a jail's
    init does it once, after its root is built; see :mod:`seccomp`)."""
    if FILTER is not None:
        syscalls.set_seccomp_filter(FILTER)


SHARED_SCRATCH = ("/tmp", "/dev/shm")  # writable by every user (mode 1777)


def scratch_dirs(cwd: str) -> list[str]:
    """Where runs write: /tmp, /dev/shm (POSIX semaphores and shared memory live there),
    and the working directory unless that is a bound host directory (a compiler's output
    directory)."""
    own_cwd = os.stat(cwd).st_dev == os.stat("/").st_dev and cwd not in SHARED_SCRATCH
    return [*SHARED_SCRATCH, cwd] if own_cwd else list(SHARED_SCRATCH)


_SCRATCH: dict[str, tuple[int, ...]] = {}  # scratch directory -> how it looked when new


def _looks(directory: str) -> tuple[int, ...]:
    st = os.stat(directory)
    return (
        st.st_ino,
        st.st_mode,
        st.st_uid,
        st.st_gid,
        st.st_size,
        st.st_nlink,
        st.st_atime_ns,
        st.st_mtime_ns,
        st.st_ctime_ns,
    )


def remember_scratch(dirs: tuple[str, ...]) -> None:
    """Note how the scratch directories look now, new (a lean init, after its exec)."""
    for directory in dirs:
        _SCRATCH[directory] = _looks(directory)


def pristine(directory: str) -> bool:
    """Whether a run left the scratch file system as it was made: its root directory the
    only file, with the same mode, owner, times, and no extended attributes (anything a
    later run could read). Cheaper than a new mount by fifteen times."""
    fs = os.statvfs(directory)
    return (
        fs.f_files - fs.f_ffree <= 1
        and fs.f_blocks == fs.f_bfree
        and _SCRATCH.get(directory) == _looks(directory)
        and not os.listxattr(directory)
    )


def renew_scratch(dirs: list[str], file_bytes: int, mounted: bool = True) -> None:
    """A new tmpfs on each scratch directory a run changed, so the next run starts from a
    state no earlier run touched: files, directory trees, modes, owners, times and
    attributes. The old one is detached and freed (with the memory it was charged) at
    once, the run's processes being gone. Each holds ``file_bytes`` and a bounded number
    of files. The init calls this after answering for a run, while its caller looks at
    the result; a failure ends the init, and with it the jail."""
    flags = syscalls.MS_NOSUID | syscalls.MS_NODEV
    sized = f"size={file_bytes},nr_inodes={SCRATCH_INODES}"
    uid, gid = identity.ids()
    owner = f"mode=755,uid={uid},gid={gid}"
    for directory in dirs:
        if mounted and pristine(directory):
            continue
        if mounted:
            syscalls.umount(directory)
        mode = "mode=1777" if directory in SHARED_SCRATCH else owner
        syscalls.mount("tmpfs", directory, "tmpfs", flags, f"{sized},{mode}")
        _SCRATCH[directory] = _looks(directory)


_ALL_CORES = os.sched_getaffinity(0)
_PINNED: list[int | None] = [None]  # the core this init (and so each program) runs on
CPUSET: list[tuple[int, str]] = []  # the session group's cpuset.cpus (open) and all cores


def pin(core: int | None) -> None:
    """Run on ``core`` (the one the grader leased, see cores), or anywhere when None;
    set only when it changes. The session's cpuset, where there is one, is set with it:
    the affinity alone a program could widen. Refused, either is left alone."""
    if core == _PINNED[0]:
        return
    if CPUSET:
        fd, every = CPUSET[0]
        try:
            os.pwrite(fd, (str(core) if core is not None else every).encode(), 0)
        except OSError:
            pass
    try:
        os.sched_setaffinity(0, {core} if core is not None else _ALL_CORES)
        _PINNED[0] = core
    except OSError:
        pass
