"""One grader for a process's forks: verl's PRIME manager sends each batch's completions
to a pool of up to 64 forked processes, made anew for every batch and terminated after
it. Each fork grading on its own started a grader (its sandboxes, its builds) per batch.
Instead, a fork asks the *reward host* of the process it was forked from: one process per
trainer process, started by the first fork that needs it, reached over a Unix socket in a
directory only its user can open, grading with ``rewards.compute_score`` itself (the same
options, flags and errors), alive while the trainer process is and at most
``IDLE_SECONDS`` without a request.

The wire: a 4-byte big-endian length, then JSON. A request is ``{"args": [...],
"kwargs": {...}}`` (or ``{"stop": true}`` from the owner); a reply ``{"result": {...}}``
or ``{"error": class name, "message"}``.
``$PROBLEMTOOLS_PY_REWARD_HOST=0``: every fork grades on its own, as before."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

HOST_ENV = "PROBLEMTOOLS_PY_REWARD_HOST"
ROOT_DIR = "/run/problemtools_py/rewardhost"
IDLE_SECONDS = 600.0
START_SECONDS = 60.0  # a host not answering within this long is given up (graded here)
MAX_MESSAGE = 512 << 20
_HEADER = struct.Struct(">I")


class HostUnavailable(RuntimeError):
    """No reward host could be had: the caller grades on its own."""


def enabled() -> bool:
    return os.environ.get(HOST_ENV, "1") != "0"


def host_dir() -> str:
    """The sockets' directory: root's under /run, another user's under the temporary
    directory; made 0700 and checked to be this user's own, never a link."""
    uid = os.geteuid()
    own = os.path.join(tempfile.gettempdir(), f"problemtools_py-rewardhost-{uid}")
    path = ROOT_DIR if uid == 0 else own
    with contextlib.suppress(FileExistsError):
        os.makedirs(path, mode=0o700)
    found = os.lstat(path)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != uid or found.st_mode & 0o077:
        raise HostUnavailable(f"{path} is not a directory of this user's alone")
    return path


def socket_path(owner: int) -> str:
    """Where the reward host of the process ``owner`` listens."""
    return os.path.join(host_dir(), f"{owner}.sock")


def encode(message: dict[str, Any]) -> bytes:
    """A message on the wire (TypeError or ValueError: JSON cannot carry it, or it is
    over MAX_MESSAGE)."""
    body = json.dumps(message, ensure_ascii=False).encode()
    if len(body) > MAX_MESSAGE:
        raise ValueError(f"a message of {len(body)} bytes; at most {MAX_MESSAGE}")
    return _HEADER.pack(len(body)) + body


def send(sock: socket.socket, message: dict[str, Any]) -> None:
    sock.sendall(encode(message))


def receive(sock: socket.socket) -> dict[str, Any] | None:
    """The next message, or None when the other side closed the connection."""
    header = _read(sock, _HEADER.size)
    if header is None:
        return None
    (size,) = _HEADER.unpack(header)
    if size > MAX_MESSAGE:
        raise ValueError(f"a message of {size} bytes; at most {MAX_MESSAGE}")
    body = _read(sock, size)
    if body is None:
        raise ConnectionError("the connection closed mid-message")
    found = json.loads(body)
    if not isinstance(found, dict):
        raise ValueError("a message is a JSON object")
    return found


def _read(sock: socket.socket, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            if left == size:
                return None
            raise ConnectionError("the connection closed mid-message")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class HostClient:
    """A fork's line to the reward host of ``owner`` (the process it was forked from):
    one connection per thread, the host started when there is none."""

    def __init__(self, owner: int, module: str) -> None:
        self.owner = owner
        self.module = module  # run with -m: its ``--host SOCKET OWNER`` serves
        self._local = threading.local()

    def call(self, request: bytes) -> dict[str, Any]:
        """The host's reply to one call, ``request`` as ``encode`` made it (raises
        HostUnavailable, or whatever the exchange raises: then the connection is dropped,
        as a reply may be in flight)."""
        conn = self._connection()
        try:
            conn.sendall(request)
            reply = receive(conn)
        except BaseException:
            self._drop()
            raise
        if reply is None:
            self._drop()
            raise HostUnavailable("the reward host closed the connection")
        return reply

    def _drop(self) -> None:
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            conn.close()

    def _connection(self) -> socket.socket:
        conn: socket.socket | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    def _connect(self) -> socket.socket:
        path = socket_path(self.owner)
        conn = _try_connect(path)
        if conn is not None:
            return conn
        with open(path + ".lock", "a+b") as lock:  # (one fork starts it; the rest wait)
            fcntl.flock(lock, fcntl.LOCK_EX)
            conn = _try_connect(path)
            if conn is not None:
                return conn
            process = subprocess.Popen(
                [sys.executable, "-m", self.module, "--host", path, str(self.owner)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
            )
            deadline = time.monotonic() + START_SECONDS
            while time.monotonic() < deadline:
                conn = _try_connect(path)
                if conn is not None:
                    return conn
                if process.poll() is not None:
                    raise HostUnavailable(f"the reward host exited ({process.returncode})")
                time.sleep(0.02)
            process.kill()
            raise HostUnavailable(f"the reward host did not answer in {START_SECONDS:g} s")


def _try_connect(path: str) -> socket.socket | None:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        return None
    return conn


def stop(owner: int) -> None:
    """Ask ``owner``'s reward host, if there is one, to end (rewards.close in the owner:
    its forks' grader goes with its own)."""
    with contextlib.suppress(HostUnavailable, OSError):
        conn = _try_connect(socket_path(owner))
        if conn is not None:
            with conn:
                send(conn, {"stop": True})


Score = Callable[..., dict[str, Any]]


def serve(score: Score, path: str, owner: int) -> int:
    """Answer calls of ``score`` on ``path`` until ``owner`` exits or no call came for
    IDLE_SECONDS; each connection in a thread of its own."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # (a host that died left it)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    listener.listen(256)
    try:
        watched = os.pidfd_open(owner)
    except ProcessLookupError:
        return 0
    last = [time.monotonic()]
    gone, stop = False, threading.Event()
    try:
        while time.monotonic() - last[0] < IDLE_SECONDS and not gone and not stop.is_set():
            ready, _, _ = select.select([listener.fileno(), watched], [], [], 0.5)
            gone = watched in ready  # (the trainer process is gone: no fork will ask)
            if listener.fileno() in ready and not gone:
                conn, _ = listener.accept()
                threading.Thread(
                    target=_answer, args=(score, conn, last, stop), daemon=True
                ).start()
        return 0
    finally:
        for leftover in (path, path + ".lock") if gone else (path,):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(leftover)
        listener.close()
        os.close(watched)


def _answer(score: Score, conn: socket.socket, last: list[float], stop: threading.Event) -> None:
    with conn:
        while True:
            try:
                request = receive(conn)
            except (OSError, ValueError):
                return
            if request is None:
                return
            if request.get("stop"):  # (its owner closed its rewards: see stop)
                stop.set()
                return
            last[0] = time.monotonic()
            try:
                reply: dict[str, Any] = {"result": score(*request["args"], **request["kwargs"])}
            except Exception as exc:  # (the caller's error, raised in the fork as it is)
                reply = {"error": type(exc).__name__, "message": str(exc)}
            last[0] = time.monotonic()
            try:
                send(conn, reply)
            except OSError:
                return  # (the fork went away: verl's pool is terminated after each batch)
