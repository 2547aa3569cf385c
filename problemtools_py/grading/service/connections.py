"""gradeserver's connections, bounded: a client cannot hold the server with connections
that never finish a request (a slow client's headers, or nothing at all), nor take every
file descriptor the process has.

- At most ``cap`` connections are open at once; one more is answered ``503`` with
  ``Retry-After`` and closed at once (its descriptor given back before it is counted).
- A connection must start a request (its headers read) within ``idle_seconds`` of opening
  or of the end of its last request, checked every ``idle_seconds``; else it is closed.
  A request's body has its own deadline (``Service.body_seconds``), and a request being
  graded is never cut.
- The soft limit of open files is raised to the hard one, and ``cap`` kept below it with
  room for the sandboxes' own descriptors."""

from __future__ import annotations

import asyncio
import resource
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

IDLE_SECONDS = 10.0
RESERVE = 512  # descriptors kept for the sandboxes, the dataset and the logs
CAP = 4096
_BUSY_BODY = b'{"error": "busy: too many connections, retry"}'
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\n"
    b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
    % (len(_BUSY_BODY), _BUSY_BODY)
)


def connection_cap() -> int:
    """The most connections at once: CAP, or fewer when the descriptors are fewer (the
    soft limit raised to the hard one first)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return max(16, min(CAP, soft - RESERVE))


@dataclass
class _State:
    """One connection: requests started on it, whether one runs, what the last check saw."""

    started: int = 0
    running: int = 0
    seen: int = -1
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class _Watched(asyncio.Protocol):
    """A connection's protocol (aiohttp's, whose slots take no wrapper), watched."""

    def __init__(self, connections: Connections, inner: asyncio.Protocol) -> None:
        self.connections = connections
        self.inner = inner
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self.connections.accept(transport):
            self.transport = transport
            self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:  # (else refused: the inner protocol never saw it)
            self.connections.forget(self.transport)
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class Connections:
    """The open connections of a server (see the module's text)."""

    def __init__(self, cap: int, idle_seconds: float = IDLE_SECONDS) -> None:
        self.cap = cap
        self.idle_seconds = idle_seconds
        self.open: dict[asyncio.BaseTransport, _State] = {}

    def factory(self, make: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for ``loop.create_server``: ``make()``'s protocols, watched."""
        return lambda: _Watched(self, make())

    def accept(self, transport: asyncio.BaseTransport) -> bool:
        """Whether a new connection is taken (else answered 503 and closed)."""
        if len(self.open) >= self.cap:
            if isinstance(transport, asyncio.WriteTransport):
                transport.write(BUSY)
            transport.close()
            return False
        self.open[transport] = _State()
        self._arm(transport)
        return True

    def forget(self, transport: asyncio.BaseTransport) -> None:
        state = self.open.pop(transport, None)
        if state is not None and state.timer is not None:
            state.timer.cancel()

    def _arm(self, transport: asyncio.BaseTransport) -> None:
        state = self.open.get(transport)
        if state is not None:
            loop = asyncio.get_running_loop()
            state.timer = loop.call_later(self.idle_seconds, self._check, transport)

    def _check(self, transport: asyncio.BaseTransport) -> None:
        state = self.open.get(transport)
        if state is None:
            return
        if state.running == 0 and state.started == state.seen:
            transport.close()
            return
        state.seen = state.started
        self._arm(transport)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Counts each request on its connection (one started: not idle)."""
        state = self.open.get(request.transport) if request.transport is not None else None
        if state is not None:
            state.started += 1
            state.running += 1
        try:
            response: web.StreamResponse = await handler(request)
            return response
        finally:
            if state is not None:
                state.running -= 1


class GuardedSite(web.TCPSite):
    """aiohttp's TCP site, its connections watched by ``connections``."""

    def __init__(
        self,
        runner: web.AppRunner,
        connections: Connections,
        host: str,
        port: int,
        reuse_port: bool = False,
    ) -> None:
        super().__init__(runner, host, port, reuse_port=reuse_port)
        self.connections = connections

    async def start(self) -> None:
        self._runner._reg_site(self)  # (BaseSite.start's part: TCPSite's own is replaced)
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            self.connections.factory(server),
            self._host,
            self._port,
            backlog=self._backlog,
            reuse_address=self._reuse_address,
            reuse_port=self._reuse_port,
        )
        sockets = self._server.sockets
        self._bound_port = sockets[0].getsockname()[1] if sockets else self._port
