"""The client's side of a lean run: what :meth:`Sandbox.run_lean` sends the jail's init
directly, and how it reads the program's stdout (up to the limit) and stderr."""

from __future__ import annotations

import os
import socket

from problemtools_py.sandbox.protocol import LeanRequest, Reply, recv_message, send_message, to_wire
from problemtools_py.sandbox.results import Limits, SandboxError, accounting


def lean_call(
    sock: socket.socket, request: LeanRequest, stdin: int, limits: Limits
) -> tuple[Reply, bytes, str]:
    """Send a lean run, read its stdout (up to the limit) and stderr's tail; the reply
    counts the output and says when it went over."""
    out_r, out_w = os.pipe()
    err = os.memfd_create("stderr")
    try:
        send_message(sock, to_wire(request), [stdin, out_w, err])
        os.close(out_w)
        out_w = -1
        stdout, over = _read_limited(out_r, limits.output_bytes)
        os.close(out_r)
        out_r = -1
        message, _ = recv_message(sock)
        if message is None:
            raise SandboxError("the sandbox's jail stopped")
        reply = accounting(message)
        size = os.fstat(err).st_size
        tail = os.pread(err, limits.stderr_bytes, max(0, size - limits.stderr_bytes))
    except OSError as exc:
        raise SandboxError(f"lost the sandbox's jail: {exc}") from exc
    finally:
        for fd in (out_r, out_w, err):
            if fd >= 0:
                os.close(fd)
    reply = reply._replace(
        output_bytes=len(stdout) + over, killed_for="output" if over else reply.killed_for
    )
    return reply, stdout, tail.decode("utf-8", errors="replace")


def _read_limited(fd: int, limit: int) -> tuple[bytes, int]:
    """Everything up to ``limit`` bytes, and 1 when there was more (then we stop reading)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := os.read(fd, 1 << 16):
        size += len(chunk)
        if size > limit:
            chunks.append(chunk[: len(chunk) - (size - limit)])
            return b"".join(chunks), 1
        chunks.append(chunk)
    return b"".join(chunks), 0
