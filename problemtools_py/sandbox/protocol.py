"""What the sandbox's two sides say to each other, typed once for both.

A message is length-prefixed JSON with file descriptors passed alongside (SCM_RIGHTS).
The records are named tuples (:mod:`.records`) rather than dataclasses on purpose: the lean
init (:mod:`.zygote`) imports this module, every test forks that init, and the
``dataclasses`` module would add about 1 MB of private memory (it loads ``inspect``) for
each fork to copy.

- The server greets its client with a :class:`Hello`.
- The client sends a :class:`Request` (stdin and stdout descriptors alongside, and two
  read ends to watch for an interactive run), or opens a session
  (:func:`open_message`), closes it (:data:`CLOSE`), or ends the run under way
  (:data:`KILL`).
- A lean session's init takes a :class:`LeanRequest` (stdin, stdout, stderr alongside)
  straight from the grader, in a fixed binary form (:data:`LEAN_REQUEST`, the argv, env
  and main file NUL-separated only when they changed, see :func:`lean_spec`) and answers
  in one (:data:`LEAN_REPLY`): its loop may be C (see ``leanloop.c``), which reads them
  without the interpreter.
- Every run is answered with a :class:`Reply`, or with an error (:func:`error_message`)
  when the sandbox itself failed.

``json`` is imported where a message is made or read: a lean init never needs it (nor
``re``, which it loads), ~3.5 ms of CPU at each init's start."""

from __future__ import annotations

import socket
import struct

from problemtools_py.sandbox.records import NamedTuple

TYPE_CHECKING = False  # (not typing's: a lean init imports this module, see records)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

_HEADER = struct.Struct("!I")
MAX_FDS = 8
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", "TMPDIR": "/tmp"}
KILL = {"kill": True}
LEAN_LOOP = "PROBLEMTOOLS_PY_LEAN_LOOP"  # "python": lean inits run their loop in Python
SPAWNS = "PROBLEMTOOLS_PY_SPAWNS"  # (in a server's environment: see launch.start_server)
# Set (to anything) where the user asks programs to run with resource limits only, no
# jail: the one way a root sandbox gives less than full isolation (see probe.probe).
NO_ISOLATION = "PROBLEMTOOLS_PY_NO_ISOLATION"
# Processes and threads a run may have at once (its cgroup's pids.max): room for the 150
# threads a program may start, four times DOMjudge's default of 64 (docs/judging.md).
TASKS = 256
# Every program's stack, its main thread's and each new thread's alike (RLIMIT_STACK; a
# half of RLIMIT_AS where that bounds memory). leanloop.c: the same figure.
STACK = 1 << 30
CLOSE = {"close": True}


class Bind(NamedTuple):
    """A host path made visible inside the sandbox."""

    source: str  # host path
    target: str  # path inside the sandbox
    writable: bool = False


class Hello(NamedTuple):
    isolation: str  # "full", or "partial: no ..." naming what is missing
    python: tuple[int, int]  # the server's Python version
    stdlib: tuple[str, ...]  # its standard library's directories (bound for in-process runs)
    pid: int
    jail_python: tuple[int, int] | None = None  # python3's version in a jail (None: unknown)
    user: tuple[int, int] = (-1, -1)  # the uid and gid its programs run as (see identity)


class Request(NamedTuple):
    """One run: the program, its files and its limits (seconds and bytes)."""

    argv: tuple[str, ...]
    cpu_seconds: float
    wall_seconds: float
    memory_bytes: int
    output_bytes: int
    env: dict[str, str] = ENV  # never changed in place
    cwd: str = "/work"
    binds: tuple[Bind, ...] = ()
    tasks: int = TASKS
    file_bytes: int = 64 << 20
    stderr_bytes: int = 64 << 10
    stdout_direct: bool = False  # stdout is the program's own (a pipe to a validator): uncounted
    truncate_output: bool = False  # past output_bytes stdout is dropped, the run goes on
    inprocess: str | None = None  # a Python main file to run in the forked server itself
    core: int = -1  # the only core its programs may use (its grader's lease), -1: any
    unlimited_stack: bool = False  # (see results.Limits)


class LeanRequest(NamedTuple):
    """One run on a lean session's direct line (the session fixed the files and memory)."""

    argv: tuple[str, ...]
    env: dict[str, str]
    cpu_seconds: float
    wall_seconds: float
    inprocess: str | None = None
    core: int | None = None  # run on this core (the grader's worker's), else anywhere
    unlimited_stack: bool = False  # (see results.Limits; sent as the flag UNLIMITED_STACK)


class Reply(NamedTuple):
    """The accounting of one run, as the server or a lean init measured it."""

    exit_code: int | None  # None when a signal ended it
    signal: int | None
    cpu_seconds: float  # user + system time of every process of the run
    wall_seconds: float
    ended: float  # time.monotonic() when the program ended
    peak_memory_bytes: int
    oom: bool  # the memory cgroup killed something
    killed_for: str | None = None  # "cpu", "wall", "output" or "judge"
    output_bytes: int = 0
    first_closed: str | None = None  # interactive: "own" or "peer" output closed first
    stderr: str = ""
    isolation: str = ""
    queued_seconds: float | None = None  # stopped by the wall clock: time spent waiting for a CPU
    tasks_full: bool = False  # a fork or a new thread failed at the run's task limit


# cpu and wall seconds, core (-1: any), flags (FRESH), length of the JSON spec after it
LEAN_REQUEST = struct.Struct("=ddiiI")
# The first run of another completion: served by a new fork of the init, never by a
# process that held an earlier completion's program (see renewal.keep); the spec comes too.
FRESH = 1
# The program's RLIMIT_STACK unlimited (results.Limits.unlimited_stack)
UNLIMITED_STACK = 2
# kind (0 a run, 1 an error), killed (0, 1 cpu, 2 wall), limits (OOM | TASKS_FULL),
# queued given; exit code, signal (0: none); cpu, wall, ended, queued seconds; peak
# memory; length of the message
LEAN_REPLY = struct.Struct("=BBBBiiddddqI")
OOM, TASKS_FULL = 1, 2  # the limits byte: the memory cgroup killed, a task was refused
KILLED = {0: None, 1: "cpu", 2: "wall"}
KILLED_CODE = {why: code for code, why in KILLED.items()}


def lean_spec(request: LeanRequest) -> bytes:
    """The part of a lean request sent only when it changed: the argv's length and words,
    the environment's size and its names and values, and the main file (or nothing), each
    followed by a NUL (none of them can hold one: they go to execve)."""
    words = [str(len(request.argv)), *request.argv, str(len(request.env))]
    for name, value in request.env.items():
        words += [name, value]
    words.append(request.inprocess or "")
    return b"".join(w.encode("utf-8", "surrogateescape") + b"\0" for w in words)


def read_lean_spec(spec: bytes) -> tuple[list[str], dict[str, str], str | None]:
    """The argv, environment and main file of :func:`lean_spec`'s bytes."""
    words = spec.decode("utf-8", "surrogateescape").split("\0")
    count = int(words[0])
    argv = words[1 : 1 + count]
    size = int(words[1 + count])
    at = 2 + count
    env = {words[at + 2 * i]: words[at + 2 * i + 1] for i in range(size)}
    return argv, env, words[at + 2 * size] or None


def pack_lean_request(request: LeanRequest, spec: bytes, flags: int = 0) -> bytes:
    """The request in its binary form; ``flags`` (FRESH) and the request's own
    (UNLIMITED_STACK) in one word."""
    core = -1 if request.core is None else request.core
    flags |= UNLIMITED_STACK if request.unlimited_stack else 0
    head = LEAN_REQUEST.pack(request.cpu_seconds, request.wall_seconds, core, flags, len(spec))
    return head + spec


def pack_lean_reply(reply: Reply) -> bytes:
    killed = KILLED_CODE.get(reply.killed_for, 0)
    queued = reply.queued_seconds
    return LEAN_REPLY.pack(
        0,
        killed,
        (OOM if reply.oom else 0) | (TASKS_FULL if reply.tasks_full else 0),
        queued is not None,
        reply.exit_code or 0,
        reply.signal or 0,
        reply.cpu_seconds,
        reply.wall_seconds,
        reply.ended,
        queued or 0.0,
        reply.peak_memory_bytes,
        0,
    )


def pack_lean_error(message: str) -> bytes:
    data = message.encode(errors="replace")[:4000]
    return LEAN_REPLY.pack(1, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0, len(data)) + data


def unpack_lean_reply(head: bytes, message: bytes) -> Reply | str:
    """A lean init's answer: the run's accounting, or the sandbox's error message."""
    kind, killed, hit, has_queued, code, sig, cpu, wall, ended, queued, peak, _ = LEAN_REPLY.unpack(
        head
    )
    if kind != 0:
        return message.decode(errors="replace")
    return Reply(
        exit_code=None if sig else code,
        signal=sig or None,
        cpu_seconds=cpu,
        wall_seconds=wall,
        ended=ended,
        peak_memory_bytes=peak,
        oom=bool(hit & OOM),
        killed_for=KILLED.get(killed),
        queued_seconds=queued if has_queued else None,
        tasks_full=bool(hit & TASKS_FULL),
    )


def to_wire(record: Hello | Request | LeanRequest | Reply) -> dict[str, Any]:
    return record._asdict()


def request_from_wire(msg: dict[str, Any]) -> Request:
    fields = dict(msg)
    fields["argv"] = tuple(str(a) for a in fields["argv"])
    fields["env"] = {str(k): str(v) for k, v in fields.get("env", ENV).items()}
    fields["binds"] = tuple(Bind(str(s), str(t), bool(w)) for s, t, w in fields.get("binds", ()))
    return Request(**fields)


def hello_from_wire(msg: dict[str, Any]) -> Hello:
    return Hello(
        str(msg["isolation"]),
        (int(msg["python"][0]), int(msg["python"][1])),
        tuple(str(d) for d in msg["stdlib"]),
        int(msg["pid"]),
        (int(jail[0]), int(jail[1])) if (jail := msg.get("jail_python")) else None,
        (int(msg["user"][0]), int(msg["user"][1])),
    )


def reply_from_wire(msg: dict[str, Any]) -> Reply | str:
    """The run's accounting, or the sandbox's error message."""
    if "error" in msg:
        return str(msg["error"])
    return Reply(**msg)


def run_spec(
    argv: Sequence[str],
    env: dict[str, str],
    cpu: float,
    inprocess: str | None,
    unlimited_stack: bool = False,
) -> dict[str, Any]:
    """What the program's own process needs of a run (see inside.program): the same for a
    jail's init, which gets it as JSON, and a lean init, which forks with it."""
    spec = {"argv": list(argv), "env": env, "cpu": cpu, "inprocess": inprocess}
    return {**spec, "unlimited_stack": True} if unlimited_stack else spec


def program_spec(request: Request) -> dict[str, Any]:
    return run_spec(
        request.argv, request.env, request.cpu_seconds, request.inprocess, request.unlimited_stack
    )


def error_message(text: str) -> dict[str, Any]:
    return {"error": text}


def open_message(
    request: Request, lean: bool, loop: str | None = None, forked: bool = False
) -> dict[str, Any]:
    """Open a session; ``loop``: the C run loop's library for a lean init (see native);
    ``forked``: the lean init stays a fork of the server (see zygote.serve_forked)."""
    return {"open": to_wire(request), "lean": lean, "loop": loop, "forked": forked}


def send_message(
    sock: socket.socket, payload: dict[str, Any], fds: list[int] | None = None
) -> None:
    import json  # (here: see the module)

    data = json.dumps(payload).encode()
    message = _HEADER.pack(len(data)) + data
    if fds:
        socket.send_fds(sock, [message], fds)
    else:
        sock.sendall(message)


def recv_message(sock: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """One message and the descriptors sent with it; (None, []) at end of stream."""
    head, fds, _, _ = socket.recv_fds(sock, _HEADER.size, MAX_FDS)
    rest = recv_exact(sock, _HEADER.size - len(head)) if head else None
    if rest is None:
        return None, fds
    (size,) = _HEADER.unpack(head + rest)
    body = recv_exact(sock, size)
    if body is None:
        return None, fds
    import json  # (here: see the module)

    return json.loads(body), fds


def recv_exact(sock: socket.socket, size: int) -> bytes | None:
    """Exactly ``size`` bytes from a stream socket; None when it ends first."""
    chunks, got = [], 0
    while got < size:
        chunk = sock.recv(min(size - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)
