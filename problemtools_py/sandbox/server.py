"""The sandbox server: a small process that runs programs on request, one at a time.

It is started by :class:`problemtools_py.sandbox.client.Sandbox` and talks over a Unix
socket: a request is a JSON header plus file descriptors (stdin, stdout); the answer is a
JSON result. As root it enters a network namespace of its own once, and gives every run a
fresh PID, mount, IPC and UTS namespace, a private root file system, a cgroup, and an
unprivileged user. Without root it falls back to resource limits and says so."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys

from problemtools_py.sandbox import identity, inprocess, probe, pystart, spawned, syscalls, zygote
from problemtools_py.sandbox.cgroups import RunGroup
from problemtools_py.sandbox.jail import Jail, JailSpec
from problemtools_py.sandbox.process import Run, RunPlace
from problemtools_py.sandbox.protocol import (
    SPAWNS,
    Bind,
    Hello,
    Request,
    error_message,
    recv_message,
    request_from_wire,
    send_message,
    to_wire,
)

TYPE_CHECKING = False  # (not typing's: the sandbox server imports no more than it uses)
if TYPE_CHECKING:
    from typing import Any, NoReturn


class Server:
    def __init__(self, sock: socket.socket, maker: Server | None = None) -> None:
        self.sock = sock
        self.root_dir, self.host_cwd_base = spawned.work_dirs()
        self.session: tuple[Jail, RunGroup | None] | None = None
        self.session_req: Request | None = None
        self.session_lean = False  # the open session takes runs from the grader only
        self.session_loop = ""  # a lean session's run loop: "c" or "python"
        self.mode = probe.Mode()
        self.jail_python: tuple[int, int] | None = None
        self.spawner = False  # it forked other servers, and runs nothing (see spawn)
        self.spawns = False  # it is to fork the others: it prepares after its hello
        if maker is None:
            self.mode = probe.probe(self)
        else:  # forked from a server that probed (see spawn): a user of its own
            self.mode, self.jail_python = probe.spawned_mode(maker.mode), maker.jail_python

    def serve(self, pidfd: int | None = None) -> None:
        """Say hello (with ``pidfd``, this process's own, when it was spawned), then
        answer requests until the judge's end of the socket closes."""
        python = (sys.version_info[0], sys.version_info[1])
        hello = Hello(
            self.mode.label,
            python,
            tuple(pystart.stdlib_dirs()),
            os.getpid(),
            self.jail_python,
            identity.known(),
        )
        try:
            send_message(self.sock, to_wire(hello), [pidfd] if pidfd is not None else None)
        except OSError:  # the judge went away first (it exited without using this server)
            return
        finally:
            if pidfd is not None:
                os.close(pidfd)
        if self.mode.refused:  # (the judge says why; nothing runs here)
            return
        if pidfd is None:  # a server started afresh: what killed servers and graders left goes
            spawned.sweep(self.mode.cgroups)
        if self.spawns:  # (while the judge, its hello sent, still imports what it needs)
            self.become_spawner()
        while True:
            try:
                msg, fds = recv_message(self.sock)
            except ConnectionError:  # the judge ended with a message of ours unread
                break
            if msg is None:
                break
            if "kill" in msg:  # a kill that arrived after its run had ended
                continue
            give: list[int] = []
            try:
                reply, give = self.handle(msg, fds)
            except (KeyError, ValueError, IndexError, TypeError) as exc:
                reply = error_message(f"bad request: {exc}")
            except OSError as exc:
                reply = error_message(f"sandbox failure: {exc}")
            try:
                send_message(self.sock, reply, give)
            except ConnectionError:  # the judge went away during the run
                break
            finally:
                for fd in give:
                    os.close(fd)
        self.close_session()

    def handle(self, msg: dict[str, Any], fds: list[int]) -> tuple[dict[str, Any], list[int]]:
        """The reply to a request, and descriptors to send with it (closed here after)."""
        if "spawn" in msg:
            return self.spawn(fds), []
        if self.spawner:
            for fd in fds:
                os.close(fd)
            return error_message("a server that spawns others runs nothing itself"), []
        if "open" in msg:
            self.close_session()
            loop = msg.get("loop")
            lean = self.open_session(
                request_from_wire(msg["open"]),
                bool(msg.get("lean")),
                loop if isinstance(loop, str) else None,
                forked=bool(msg.get("forked")),
            )
            reply = {"ok": True, "lean": lean is not None, "loop": self.session_loop}
            return reply, [] if lean is None else [lean]
        if "close" in msg:
            self.close_session()
            return {"ok": True}, []
        try:
            req = request_from_wire(msg)
            stdin_fd, stdout_fd = fds[0], fds[1]
        except (KeyError, ValueError, IndexError, TypeError):
            for fd in fds:
                os.close(fd)
            raise
        watch = (fds[2], fds[3]) if len(fds) == 4 else ()
        return self.run(req, stdin_fd, stdout_fd, watch), []

    def spawn(self, fds: list[int]) -> dict[str, Any]:
        """Fork a new server talking on the socket ``fds[0]``: it has this one's imports,
        preloaded modules and probe's answers, so it starts in a millisecond instead of the
        50 ms of a new interpreter. A server that spawns runs nothing itself (it would
        have to tell its runs' children from the servers it reaps) and holds no session."""
        if len(fds) != 1 or self.session is not None:
            for fd in fds:
                os.close(fd)
            why = "holds a session" if self.session is not None else "needs one socket"
            return error_message(f"a spawn request {why}")
        self.become_spawner()
        pid = os.fork()
        if pid == 0:
            _serve_spawned(self, fds[0])
        spawned.record(pid)  # (its directories, named by its PID, go when it is reaped)
        os.close(fds[0])
        return {"ok": True, "pid": pid}

    def become_spawner(self) -> None:
        """From now on this server forks others and runs nothing itself: the modules they
        preload, imported here once for all of them, and its reaping of them."""
        if not self.spawner:
            self.spawner = True
            identity.release()  # (each server it forks takes a user of its own)
            inprocess.preload()
            spawned.begin(self.mode.cgroups)

    def open_session(
        self, req: Request, lean: bool = False, loop: str | None = None, forked: bool = False
    ) -> int | None:
        """A jail for many runs with the same files and memory (one program, many tests).
        With ``lean`` (and a memory cgroup to account with), the descriptor of a socket on
        which the jail's init takes runs directly (see :mod:`lean`); ``forked``: that init
        stays a fork of this server instead of starting a fresh interpreter."""
        if (not lean or forked) and self._binds_stdlib(req):
            # A jail that may fork in-process Python from its init (forked from here): the
            # modules programs use most, imported once, before it forks (a lean init
            # imports them itself, and a server that only opens lean sessions never does)
            inprocess.preload()
        if not self.mode.namespaces:
            self.session_req = req
            return None
        group = self.mode.cgroups.create(req.memory_bytes, req.tasks) if self.mode.cgroups else None
        lean = lean and group is not None
        binds = tuple(req.binds)
        # the C run loop, built by the client (see native): bound into the jail read-only
        loop = loop if lean and loop and os.path.isabs(loop) and os.path.isfile(loop) else None
        if lean:  # its init imports the judge's zygote module from there
            here = os.path.dirname(os.path.abspath(zygote.__file__))
            binds += (Bind(here, zygote.MOUNT + "/problemtools_py/sandbox"),)
        self.session_loop = ("c" if loop is not None else "python") if lean else ""
        if loop is not None:  # and its C run loop
            binds += (Bind(os.path.dirname(loop), zygote.MOUNT + "/native"),)
        spec = JailSpec(
            self.root_dir,
            req.cwd,
            binds,
            req.file_bytes,
            tuple(group.join_paths()) if group else (),
            None if group else req.memory_bytes,
            tuple((n, p, k) for n, (p, k) in group.counter_files.items()) if group and lean else (),
            zygote.MOUNT + "/native/" + os.path.basename(loop) if loop is not None else None,
            forked,
            group.cpuset() if lean and group is not None else None,
            tuple(group.init_join_paths()) if group else (),
        )
        ours, theirs = socket.socketpair() if lean else (None, None)
        try:
            jail = Jail(spec, theirs.detach() if theirs is not None else None)
        except BaseException:
            if group is not None:
                group.remove()
            if ours is not None:
                ours.close()
            raise
        self.session = (jail, group)
        self.session_req = req
        self.session_lean = lean
        if not jail.alive:
            self.close_session()
            if ours is not None:
                ours.close()
            raise OSError("the sandbox could not start its namespaces")
        return ours.detach() if ours is not None else None

    @staticmethod
    def _binds_stdlib(req: Request) -> bool:
        stdlib = set(pystart.stdlib_dirs())
        return any(bind.target in stdlib for bind in req.binds)

    def close_session(self) -> None:
        if self.session is not None:
            jail, group = self.session
            self.session = None
            self.session_lean = False
            jail.close()
            if group is not None:
                group.remove()
        self.session_req = None

    def run(
        self, req: Request, stdin_fd: int, stdout_fd: int, watch: tuple[int, ...] = ()
    ) -> dict[str, Any]:
        """Run one request (in the open session, else in a jail of its own); the
        descriptors are the run's and are closed by it. ``watch``: an interactive run's
        read ends, whose hang-up order is reported."""
        if self.session_lean:
            for fd in (stdin_fd, stdout_fd, *watch):
                os.close(fd)
            return error_message("this session takes its runs on its direct line (lean)")
        if req.inprocess is not None:  # (forked from here, or from a jail's init forked now)
            inprocess.preload()
        place = RunPlace(self.sock, self.mode.label, self.host_cwd_base)
        if self.session_req is not None:
            base = self.session_req
            req = req._replace(
                binds=base.binds,
                cwd=base.cwd,
                memory_bytes=base.memory_bytes,
                tasks=base.tasks,
                file_bytes=base.file_bytes,
            )
            jail, group = self.session if self.session else (None, None)
            if group is not None:  # (the core its grader leased: see cores)
                group.confine(req.core if req.core >= 0 else None)
            return Run(place, req, jail, group, (stdin_fd, stdout_fd), watch).execute()
        if not self.mode.namespaces:
            return Run(place, req, None, None, (stdin_fd, stdout_fd), watch).execute()
        try:
            self.open_session(req)
        except OSError as exc:
            for fd in (stdin_fd, stdout_fd, *watch):
                os.close(fd)
            return error_message(f"sandbox setup failed: {exc}")
        try:
            return self.run(req, stdin_fd, stdout_fd, watch)
        finally:
            self.close_session()


def _serve_spawned(maker: Server, fd: int) -> NoReturn:
    """The forked child of Server.spawn: a server of its own on ``fd``, until its judge
    goes; it never returns into its maker's loop."""
    status = 1
    try:
        spawned.forget()
        maker.sock.close()  # the maker's judge is not this one's to talk to
        if maker.mode.namespaces and not any("network" in m for m in maker.mode.missing):
            # a network namespace of its own, as a new server has: programs running at
            # once in two servers share no loopback or abstract Unix sockets
            syscalls.unshare(syscalls.CLONE_NEWNET)
        run_server(Server(socket.socket(fileno=fd), maker), os.pidfd_open(os.getpid()))
        status = 0
    finally:
        os._exit(status)


def run_server(server: Server, pidfd: int | None = None) -> None:
    try:
        server.serve(pidfd)
    finally:  # (a judge that went away with a session open leaves no jail or cgroup)
        with contextlib.suppress(Exception):
            server.close_session()
        spawned.remove((server.root_dir, server.host_cwd_base))


def main() -> None:
    fd = int(sys.argv[-1])
    sock = socket.socket(fileno=fd)
    # No parent-death signal: it follows the thread that started us, and judges start
    # servers from worker threads. When the judge goes away, its end of the socket closes
    # and the server ends (even in the middle of a run).
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the judge decides; Ctrl-C goes to it
    pystart.stdlib_path()
    server = Server(sock)
    server.spawns = os.environ.pop(SPAWNS, "") == "1"
    try:
        run_server(server)
    finally:
        if server.spawner:  # (the servers it made end with their judges' sockets)
            spawned.reap_all(5.0)
    # Its work is done and cleaned up: the interpreter's teardown (~8 ms, which the judge
    # waits for at the end of every command) would free nothing the exit does not.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
