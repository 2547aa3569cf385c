"""A real multi-node Ray cluster on this one machine, for the cluster tests: a head
started by ``ray start --head`` and worker nodes by ``ray start --address``, each with
its own CPUs and a resource naming it. A worker may be started in a mount namespace of
its own where some directories are hidden under an empty tmpfs (a node of a cluster
without a shared file system: it does not see the dataset the driver reads). Token
authentication is on, with a token of the test's own. Every process of the cluster is
found by its session directory (never ``ray stop``, which would stop other runs' Ray)."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RAY = str(Path(sys.executable).parent / "ray")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RayNodes:
    def __init__(self) -> None:
        # (short: Ray's Unix sockets live below it, and their paths are at most 107 bytes)
        self.temp = Path(tempfile.mkdtemp(prefix="ptr-", dir="/tmp"))
        self.port = free_port()
        self.env = {**os.environ, "RAY_AUTH_MODE": "token",
                    "RAY_AUTH_TOKEN": secrets.token_hex(16), "RAY_USAGE_STATS_ENABLED": "0"}
        self.address = ""

    def start_head(self, cpus: int) -> str:
        self._ray(["start", "--head", f"--port={self.port}", f"--num-cpus={cpus}",
                   f"--temp-dir={self.temp}", "--include-dashboard=false",
                   "--object-store-memory=150000000", '--resources={"node_head": 1}'])
        self.address = f"127.0.0.1:{self.port}"
        return self.address

    def add_worker(self, name: str, cpus: int, hidden: list[Path] | None = None,
                   masked: list[Path] | None = None) -> None:
        """A worker node; ``hidden`` directories look empty to it, ``masked`` files are
        /dev/null there (a node without a compiler)."""
        argv = ["start", f"--address={self.address}", f"--num-cpus={cpus}",
                "--object-store-memory=150000000", f'--resources={{"{name}": 1}}']
        if not hidden and not masked:
            self._ray(argv)
            return
        mounts = " && ".join([*(f"mount -t tmpfs tmpfs {p}" for p in hidden or []),
                              *(f"mount --bind /dev/null {p}" for p in masked or [])])
        script = f"{mounts} && exec {RAY} {' '.join(repr(a) for a in argv)}"
        subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
                       env=self.env, check=True, capture_output=True, timeout=120)

    def alive(self) -> int:
        """How many of its nodes are alive, as the cluster says."""
        code = (f"import ray; ray.init(address={self.address!r}, log_to_driver=False); "
                "print(sum(1 for n in ray.nodes() if n['Alive']))")
        out = subprocess.run([sys.executable, "-c", code], env=self.env,
                             capture_output=True, text=True, timeout=120)
        # (the count is the last line: Ray may print a node's death above it)
        counts = [line for line in out.stdout.splitlines() if line.strip().isdigit()]
        return int(counts[-1]) if counts else 0

    def add_user_worker(self, name: str, cpus: int) -> None:
        """A worker node whose Ray runs as nobody (a node without root)."""
        for path in [self.temp, *self.temp.rglob("*")]:
            with contextlib.suppress(OSError):
                path.chmod(0o777)
        argv = [RAY, "start", f"--address={self.address}", f"--num-cpus={cpus}",
                "--object-store-memory=150000000", f'--resources={{"{name}": 1}}']
        subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv],
                       env={**self.env, "HOME": str(self.temp)}, check=True,
                       capture_output=True, timeout=120)

    def wait_nodes(self, count: int, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.alive() == count:
                return
            time.sleep(1)
        raise AssertionError(f"the cluster did not reach {count} nodes")

    def raylet_of(self, name: str) -> int:
        """The pid of the raylet of the worker with resource ``name``."""
        for pid in self._pids():
            try:
                exe = os.readlink(f"/proc/{pid}/exe")
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode()
            except OSError:
                continue
            if exe.endswith("/raylet") and f"--static_resource_list={name}," in cmdline:
                return pid
        raise AssertionError(f"no raylet with {name}")

    def _pids(self) -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if str(self.temp).encode() in cmdline:
                found.append(int(entry.name))
        return found

    def stop(self) -> None:
        for _ in range(3):
            pids = self._pids()
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(1)
        shutil.rmtree(self.temp, ignore_errors=True)

    def _ray(self, argv: list[str]) -> None:
        subprocess.run([RAY, *argv], env=self.env, check=True, capture_output=True, timeout=120)
