"""The client's side of a lean run: what :meth:`Sandbox.run_lean` sends the jail's init
directly (in the binary form of :data:`protocol.LEAN_REQUEST`), and how it reads the
program's stdout (up to the limit), stderr and the reply."""

from __future__ import annotations

import os
import select
import socket
from collections.abc import Sequence

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


def lean_request(
    argv: Sequence[str], env: dict[str, str], limits: Limits, inprocess: str | None, core: int
) -> LeanRequest:
    """One run's request, from its limits."""
    return LeanRequest(
        tuple(argv), env, limits.cpu_seconds, limits.wall, inprocess, core, limits.unlimited_stack
    )


def lean_call(
    line: LeanLine, request: LeanRequest, stdin: int, limits: Limits
) -> tuple[Reply, bytes, str]:
    """Send a lean run, read its stdout (up to the limit) and stderr (its tail kept, the
    rest read and dropped, as the server's runs have it: a program flooding stderr runs
    on, never stopped by a file's size limit); the reply counts the output and says when
    it went over."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    spec = lean_spec(request)
    known, line.spec = line.spec == spec, None  # (unknown until the init has read it)
    flags = FRESH if line.fresh else 0
    try:
        socket.send_fds(
            line.sock,
            [pack_lean_request(request, b"" if known else spec, flags)],
            [stdin, out_w, err_w],
        )
        line.spec, line.fresh = spec, False
        os.close(out_w)
        os.close(err_w)
        out_w = err_w = -1
        stdout, over, tail = _read_streams(out_r, err_r, limits)
        out_r = err_r = -1  # (closed there)
        reply = _reply(line.sock)
    except OSError as exc:
        raise SandboxError(f"lost the sandbox's jail: {exc}") from exc
    finally:
        for fd in (out_r, out_w, err_r, err_w):
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


def _read_streams(out: int, err: int, limits: Limits) -> tuple[bytes, int, bytes]:
    """stdout up to ``limits.output_bytes`` and how many more bytes there were (1 when we
    then stop reading it: the program's next write fails; all of them when the limits
    truncate, read to the end), and the last ``limits.stderr_bytes`` of stderr, read to
    its end. Both descriptors are closed here."""
    limit, keep = limits.output_bytes, limits.stderr_bytes
    chunks: list[bytes] = []
    size, tail = 0, bytearray()
    poller = select.poll()
    poller.register(out, select.POLLIN)
    poller.register(err, select.POLLIN)
    open_fds = {out, err}
    try:
        while open_fds:
            for fd, _ in poller.poll():
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    poller.unregister(fd)
                    open_fds.discard(fd)
                    os.close(fd)
                elif fd == err:
                    tail += chunk
                    del tail[: max(0, len(tail) - keep)]
                else:
                    size += len(chunk)
                    if size <= limit:
                        chunks.append(chunk)
                        continue
                    if size - len(chunk) < limit:
                        chunks.append(chunk[: limit - (size - len(chunk))])
                    if not limits.truncate_output:  # (stop reading: the next write fails)
                        poller.unregister(out)
                        open_fds.discard(out)
                        os.close(out)
                        size = limit + 1
    finally:
        for fd in open_fds:
            os.close(fd)
    return b"".join(chunks), max(0, size - limit), bytes(tail)
