"""The sandbox server's wire format: a length-prefixed JSON message, with file descriptors
passed alongside (SCM_RIGHTS)."""

from __future__ import annotations

import json
import socket
import struct
from typing import Any

_HEADER = struct.Struct("!I")
MAX_FDS = 8


def send_message(
    sock: socket.socket, payload: dict[str, Any], fds: list[int] | None = None
) -> None:
    data = json.dumps(payload).encode()
    message = _HEADER.pack(len(data)) + data
    if fds:
        socket.send_fds(sock, [message], fds)
    else:
        sock.sendall(message)


def recv_message(sock: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """One message and the descriptors sent with it; (None, []) at end of stream."""
    head, fds, _, _ = socket.recv_fds(sock, _HEADER.size, MAX_FDS)
    if not head:
        return None, fds
    while len(head) < _HEADER.size:
        more = sock.recv(_HEADER.size - len(head))
        if not more:
            return None, fds
        head += more
    (size,) = _HEADER.unpack(head)
    body = b""
    while len(body) < size:
        chunk = sock.recv(min(size - len(body), 1 << 20))
        if not chunk:
            return None, fds
        body += chunk
    return json.loads(body), fds
