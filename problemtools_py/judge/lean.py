"""The grader's side of a lean session, for graders that run one Python program on many
tests.

The session's init (PID 1 of the jail, a fresh interpreter: see :mod:`zygote`) listens on
a socket whose other end the sandbox server hands to the grader. A request there is one
run: the grader sends stdin, the write end of a stdout pipe and a stderr file, and reads
the pipe itself (counting it against the output limit); the init forks the program exactly
as for any run (limits, nobody, no new privileges, the session's cgroup), waits for it
under the CPU and wall limits, kills and reaps whatever it left, empties the scratch
space, and answers with the accounting. The server takes no part in the run, so a test
costs one fork and a few system calls instead of a round trip through a second process."""

from __future__ import annotations

import os
import socket
import stat

from problemtools_py.judge.protocol import recv_message, send_message
from problemtools_py.judge.results import Limits, RunResult


def run(
    sock: socket.socket,
    argv: list[str],
    env: dict[str, str],
    limits: Limits,
    stdin: int,
    inprocess: str | None,
    isolation: str,
    core: int | None = None,
) -> RunResult:
    """The grader's side of a lean run: ``stdin`` is a memory file (memfd_create: the
    programs' streams are made for that kind) at its start, kept open; stdout is
    read here, up to the output limit (past it the pipe is closed and the run is an output
    limit); the last ``limits.stderr_bytes`` of stderr are kept."""
    from problemtools_py.judge.sandbox import SandboxError, result_from_reply

    if not stat.S_ISREG(os.fstat(stdin).st_mode):
        raise ValueError("a lean run's stdin must be a regular (memory) file")
    out_r, out_w = os.pipe()
    err = os.memfd_create("stderr")
    try:
        message = {
            "argv": argv,
            "env": env,
            "cpu": limits.cpu_seconds,
            "wall": limits.wall,
            "inprocess": inprocess,
            "core": core,
        }
        send_message(sock, message, [stdin, out_w, err])
        os.close(out_w)
        out_w = -1
        stdout, over = _read_limited(out_r, limits.output_bytes)
        os.close(out_r)
        out_r = -1
        reply, _ = recv_message(sock)
        if reply is None:
            raise SandboxError("the sandbox's jail stopped")
        if "error" in reply:
            raise SandboxError(str(reply["error"]))
        size = os.fstat(err).st_size
        tail = os.pread(err, limits.stderr_bytes, max(0, size - limits.stderr_bytes))
    except OSError as exc:
        raise SandboxError(f"lost the sandbox's jail: {exc}") from exc
    finally:
        for fd in (out_r, out_w, err):
            if fd >= 0:
                os.close(fd)
    reply.update(
        output_bytes=len(stdout) + over,
        killed_for="output" if over else reply.get("killed_for"),
        stderr=tail.decode("utf-8", errors="replace"),
        isolation=isolation,
    )
    return result_from_reply(reply, limits, stdout)


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
