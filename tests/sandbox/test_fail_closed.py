"""A root sandbox fails closed (issue 40): when it cannot establish full isolation (here
a namespace call refused: the sandbox's own seccomp filter, which denies unshare, put on
the process that starts it), it tries again, then refuses with what failed, and runs
nothing; never a program as root on the host. Less only when the user asks for it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.packages import SAMPLES

from problemtools_py.sandbox.protocol import ENV, NO_ISOLATION

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="a root sandbox's choice")

# Under the filter (no new privileges: it is inherited by the server, whose probe's
# unshare(CLONE_NEWNET) then fails with EPERM), start a sandbox and try to run `id -u`.
ATTACK = """
import sys
from problemtools_py.sandbox import seccomp, syscalls
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.results import Limits, SandboxError
syscalls.prctl(syscalls.PR_SET_NO_NEW_PRIVS, 1)
syscalls.set_seccomp_filter(seccomp.build_filter())
try:
    with Sandbox() as box:
        run = box.run(["id", "-u"], limits=Limits(cpu_seconds=1, memory_bytes=1 << 28))
        print("RAN", run.stdout.decode().strip(), box.isolation)
except SandboxError as exc:
    print("REFUSED", exc)
"""


def start(env: dict[str, str]) -> tuple[str, float]:
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-c", ATTACK], capture_output=True, text=True,
                          env=env, timeout=120, check=False)  # fmt: skip
    return done.stdout.strip() + done.stderr.strip(), time.monotonic() - began


def test_a_sandbox_that_cannot_isolate_refuses_and_says_why() -> None:
    env = {k: v for k, v in os.environ.items() if k != NO_ISOLATION}
    said, seconds = start(env)
    assert said.startswith("REFUSED the sandbox cannot isolate programs here (no network "
                           "namespace (unshare: Operation not permitted)"), said  # fmt: skip
    assert f"set {NO_ISOLATION}=1" in said and "RAN" not in said
    assert seconds > 0.6  # (it tried again before refusing)


def test_less_isolation_only_when_asked_for() -> None:
    said, _ = start({**os.environ, NO_ISOLATION: "1", "PATH": ENV["PATH"]})
    assert said.startswith("RAN "), said
    assert "partial: no isolation (turned off on request" in said


def test_verifyproblem_under_a_refusing_sandbox_reports_it_and_fails(tmp_path: Path) -> None:
    """The real command, on a package whose programs must run (a cache of its own: no
    verdict to reuse): its error names what failed, it exits 1, nothing ran."""
    package = tmp_path / "hello"
    shutil.copytree(SAMPLES / "hello", package)
    env = {k: v for k, v in os.environ.items() if k != NO_ISOLATION}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    under = ("import os, sys\nfrom problemtools_py.sandbox import seccomp, syscalls\n"
             "syscalls.prctl(syscalls.PR_SET_NO_NEW_PRIVS, 1)\n"
             "syscalls.set_seccomp_filter(seccomp.build_filter())\n"
             "os.execv(sys.argv[1], sys.argv[1:])\n")  # fmt: skip
    command = [str(Path(sys.executable).parent / "verifyproblem"), "-p", "submissions",
               "--json", str(package)]  # fmt: skip
    done = subprocess.run([sys.executable, "-c", under, *command], capture_output=True,
                          text=True, env=env, timeout=300, check=False)  # fmt: skip
    (finding,) = json.loads(done.stdout)["problems"][0]["findings"]
    assert done.returncode == 1 and finding["severity"] == "error"
    assert "the sandbox cannot isolate programs here (no network namespace" in finding["message"]
