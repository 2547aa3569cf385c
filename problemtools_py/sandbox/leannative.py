"""A lean init's run loop in C (``leanloop.c``, built by :mod:`native`): the structures it
shares with Python, and the loop that hands it each run and takes back what only Python
can do (a new argv or main file, a message from the server, the program itself in its
own process). Imported by the init, inside the jail: standard library only."""

from __future__ import annotations

import ctypes
import os
import socket

from problemtools_py.sandbox import identity
from problemtools_py.sandbox.counters import Stats
from problemtools_py.sandbox.inside import CPUSET, SHARED_SCRATCH, Setup

TYPE_CHECKING = False  # (not typing's: a lean init imports this module, see records)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol

    class Program(Protocol):
        """The runs' argv, environment and main file, as the init holds them
        (zygote.Current)."""

        argv: list[str]
        env: dict[str, str]
        inprocess: str | None

        def update(self, spec: bytes) -> None: ...

        def prepare(self) -> None: ...

        def start(self, exec_error: int) -> None: ...


CHILD, NEED_SPEC, NEED_PREPARE, CONTROL, GRADER_GONE, RENEW, FAILED = 0, 1, 2, 3, 4, 5, -1
MAX_JOIN, MAX_SCRATCH = 8, 4  # (leanloop.c's)


class Config(ctypes.Structure):
    """struct lean_config"""

    _fields_ = [
        ("grader", ctypes.c_int),
        ("control", ctypes.c_int),
        ("cpu_fd", ctypes.c_int),
        ("cpu_usec", ctypes.c_int),
        ("peak_fd", ctypes.c_int),
        ("oom_fd", ctypes.c_int),
        ("tasks_fd", ctypes.c_int),
        ("full_fd", ctypes.c_int),
        ("njoin", ctypes.c_int),
        ("join", ctypes.c_int * MAX_JOIN),
        ("nscratch", ctypes.c_int),
        ("shared", ctypes.c_int * MAX_SCRATCH),
        ("scratch", ctypes.c_char_p * MAX_SCRATCH),
        ("cwd", ctypes.c_char_p),
        ("file_bytes", ctypes.c_longlong),
        ("address_space", ctypes.c_longlong),
        ("uid", ctypes.c_uint),
        ("gid", ctypes.c_uint),
        ("cpus_fd", ctypes.c_int),
        ("all_cpus", ctypes.c_char_p),
    ]


class State(ctypes.Structure):
    """struct lean_state"""

    _fields_ = [
        ("pending", ctypes.c_int),
        ("fds", ctypes.c_int * 3),
        ("exec_error", ctypes.c_int),
        ("inprocess", ctypes.c_int),
        ("cpu", ctypes.c_double),
        ("wall", ctypes.c_double),
        ("core", ctypes.c_int),
        ("spec_len", ctypes.c_uint),
        ("spec", ctypes.c_char * 65536),
        ("main_path", ctypes.c_char * 4096),
        ("main_known", ctypes.c_int),
        ("pinned", ctypes.c_int),
        ("all", ctypes.c_ulong * 16),  # cpu_set_t
        ("cpu_count", ctypes.c_longlong),
        ("oom_count", ctypes.c_longlong),
        ("full_count", ctypes.c_longlong),
        ("snap", (ctypes.c_longlong * 9) * MAX_SCRATCH),
        ("error", ctypes.c_char * 512),
        ("exec_argv", ctypes.POINTER(ctypes.c_char_p)),
        ("exec_envp", ctypes.POINTER(ctypes.c_char_p)),
        ("exec_path", ctypes.c_char_p),
        ("served", ctypes.c_int),
        ("flags", ctypes.c_int),
    ]


SPEC_AT = State.spec.offset


def config(
    control: socket.socket, grader: socket.socket, setup: Setup, stats: Stats
) -> Config | None:
    """The C loop's configuration; None when this session is one it was not written for
    (then the Python loop serves)."""
    fds = stats.fds
    cpu = fds.get("cpu_usec") or fds.get("cpu_nsec")
    known_keys = cpu is not None and cpu[1] in (None, "usage_usec")
    if not known_keys or fds.get("oom", (0, "oom_kill"))[1] != "oom_kill":
        return None
    if len(setup.join) > MAX_JOIN or len(setup.scratch) > MAX_SCRATCH:
        return None
    assert cpu is not None
    made = Config(
        grader=grader.fileno(),
        control=control.fileno(),
        cpu_fd=cpu[0],
        cpu_usec=int("cpu_usec" in fds),
        peak_fd=fds.get("peak", (-1, None))[0],
        oom_fd=fds.get("oom", (-1, None))[0],
        tasks_fd=fds.get("tasks", (-1, None))[0],
        full_fd=fds.get("full", (-1, None))[0],
        njoin=len(setup.join),
        nscratch=len(setup.scratch),
        cwd=setup.cwd.encode(),
        file_bytes=setup.file_bytes,
        address_space=-1 if setup.address_space is None else setup.address_space,
        uid=identity.ids()[0],
        gid=identity.ids()[1],
        cpus_fd=CPUSET[0][0] if CPUSET else -1,
        all_cpus=CPUSET[0][1].encode() if CPUSET else b"",
    )
    for index, fd in enumerate(setup.join):
        made.join[index] = fd
    for index, directory in enumerate(setup.scratch):
        made.scratch[index] = directory.encode()
        made.shared[index] = int(directory in SHARED_SCRATCH)
    return made


def load(
    library: str, control: socket.socket, grader: socket.socket, setup: Setup, stats: Stats
) -> tuple[Any, Any, Config, State] | None:
    """The C loop's entry points, config and state, made once by the init before it forks
    any server of runs (see renewal: each would otherwise load the library and build
    these again, ~1 ms a completion); None when the loop cannot be had here."""
    try:
        lib = ctypes.PyDLL(library)
    except OSError:
        return None
    made = config(control, grader, setup, stats)
    if made is None:
        return None
    return lib.ptpy_lean_start, lib.ptpy_lean_serve, made, State()


def serve(
    loaded: tuple[Any, Any, Config, State],
    control: socket.socket,
    grader: socket.socket,
    current: Program,
    on_control: Callable[[socket.socket], None],
) -> None:
    """Serve runs with the C loop (``loaded`` by :func:`load`) until the server closes the
    control socket (then the init exits, in ``on_control``) or another completion's first
    run is next (then a new fork of the init serves it, see renewal)."""
    start, serve_runs, made, state = loaded
    held: list[object] = []  # (the arrays state.exec_* point into, see exec_spec)
    start(ctypes.byref(made), ctypes.byref(state))  # (the counters as they stand now)
    prepared = 0
    while True:
        code = serve_runs(ctypes.byref(made), ctypes.byref(state), prepared)
        prepared = 0
        if code == CHILD:
            current.start(state.exec_error)
        elif code == NEED_SPEC:
            # (its bytes as sent: a c_char array field reads only up to its first NUL)
            current.update(ctypes.string_at(ctypes.addressof(state) + SPEC_AT, state.spec_len))
            state.inprocess = int(current.inprocess is not None)
            state.main_path = (current.inprocess or "").encode()
            state.main_known = 0
            held[:] = [exec_spec(state, current.argv, current.env, current.inprocess)]
            if current.inprocess is None:
                prepared = 1
        elif code == NEED_PREPARE:
            current.prepare()
            prepared = 1
        elif code == CONTROL:
            on_control(control)
        elif code == RENEW:
            return
        elif code == GRADER_GONE:
            made.grader = -1  # (the server's control socket still ends the init)
            grader.close()
        else:
            os.write(2, b"lean init: " + state.error.rstrip(b"\0") + b"\n")
            os._exit(1)


def exec_spec(state: State, argv: list[str], env: dict[str, str], inprocess: str | None) -> object:
    """Give the C loop an exec'd spec's argv, environment and PATH, so that it starts the
    program itself (see leanloop.c, spawn); returns what they point into, to be held while
    the spec stands. A spec os.execve would refuse (an empty argv or name, a name with
    "=") is left to Python, which says why as inside.start always has."""
    state.exec_argv = state.exec_envp = None
    state.exec_path = None
    if inprocess is not None:
        return None
    words = [os.fsencode(arg) for arg in argv]
    named = [(os.fsencode(name), os.fsencode(value)) for name, value in env.items()]
    if not words or not words[0]:
        return None
    if any(not name or b"=" in name for name, _ in named):
        return None
    pairs = [name + b"=" + value for name, value in named]
    args = (ctypes.c_char_p * (len(words) + 1))(*words, None)
    envp = (ctypes.c_char_p * (len(pairs) + 1))(*pairs, None)
    state.exec_argv = ctypes.cast(args, ctypes.POINTER(ctypes.c_char_p))
    state.exec_envp = ctypes.cast(envp, ctypes.POINTER(ctypes.c_char_p))
    if b"/" not in words[0]:  # (searched as os.get_exec_path does)
        state.exec_path = os.fsencode(env.get("PATH", os.defpath))
    return (args, envp, words, pairs)
