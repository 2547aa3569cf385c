"""The client's side of a lean run: what :meth:`Sandbox.run_lean` sends the jail's init
directly (in the binary form of :data:`protocol.LEAN_REQUEST`), and how it reads the
program's stdout (up to the limit), stderr and the reply."""

from __future__ import annotations

import os
import socket

from problemtools_py.sandbox.protocol import (
    FRESH,
    LEAN_REPLY,
    LeanRequest,
    Reply,
    lean_spec,
    pack_lean_request,
    recv_exact,
    unpack_lean_reply,
)
from problemtools_py.sandbox.results import Limits, SandboxError


class LeanLine:
    """The direct line to a lean session's init, and the spec (argv, env, main file) the
    init holds from the last request that carried one."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.spec: bytes | None = None
        self.fresh = False  # the next run starts another completion (see protocol.FRESH)

    def renew(self) -> None:
        """What runs next belongs to another completion: its first run goes to a new fork
        of the init (which never held a program), with the spec, as the first of all."""
        self.fresh, self.spec = True, None

    def close(self) -> None:
        self.sock.close()


def lean_call(
    line: LeanLine, request: LeanRequest, stdin: int, limits: Limits
) -> tuple[Reply, bytes, str]:
    """Send a lean run, read its stdout (up to the limit) and stderr's tail; the reply
    counts the output and says when it went over."""
    out_r, out_w = os.pipe()
    err = os.memfd_create("stderr")
    spec = lean_spec(request)
    known, line.spec = line.spec == spec, None  # (unknown until the init has read it)
    flags = FRESH if line.fresh else 0
    try:
        socket.send_fds(
            line.sock,
            [pack_lean_request(request, b"" if known else spec, flags)],
            [stdin, out_w, err],
        )
        line.spec, line.fresh = spec, False
        os.close(out_w)
        out_w = -1
        stdout, over = _read_limited(out_r, limits.output_bytes, limits.truncate_output)
        os.close(out_r)
        out_r = -1
        reply = _reply(line.sock)
        size = os.fstat(err).st_size
        tail = os.pread(err, limits.stderr_bytes, max(0, size - limits.stderr_bytes))
    except OSError as exc:
        raise SandboxError(f"lost the sandbox's jail: {exc}") from exc
    finally:
        for fd in (out_r, out_w, err):
            if fd >= 0:
                os.close(fd)
    killed = "output" if over and not limits.truncate_output else reply.killed_for
    reply = reply._replace(output_bytes=len(stdout) + over, killed_for=killed)
    return reply, stdout, tail.decode("utf-8", errors="replace")


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    data = recv_exact(sock, size)
    if data is None:
        raise SandboxError("the sandbox's jail stopped")
    return data


def _reply(sock: socket.socket) -> Reply:
    head = _recv_exact(sock, LEAN_REPLY.size)
    size = LEAN_REPLY.unpack(head)[-1]
    found = unpack_lean_reply(head, _recv_exact(sock, size) if size else b"")
    if isinstance(found, str):
        raise SandboxError(found)
    return found


def _read_limited(fd: int, limit: int, drain: bool = False) -> tuple[bytes, int]:
    """Everything up to ``limit`` bytes, and how many more there were: 1 when we then stop
    reading (the program's next write fails), all of them when we ``drain`` to its end."""
    chunks: list[bytes] = []
    size = 0
    while chunk := os.read(fd, 1 << 16):
        size += len(chunk)
        if size > limit:
            chunks.append(chunk[: len(chunk) - (size - limit)])
            if not drain:
                return b"".join(chunks), 1
            while more := os.read(fd, 1 << 16):
                size += len(more)
            return b"".join(chunks), size - limit
        chunks.append(chunk)
    return b"".join(chunks), 0
