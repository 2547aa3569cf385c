"""sandbox/stopping.py: Ctrl-C kills every sandbox server, and none starts after it."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import weakref

import pytest

from problemtools_py.sandbox import stopping
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.results import SandboxError


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """This test's own record (the process's stays as it was for the other tests)."""
    monkeypatch.setattr(stopping, "_live", weakref.WeakSet())
    monkeypatch.setattr(stopping, "_stopped", threading.Event())


def test_stop_all_kills_what_is_tracked_and_starts_nothing_after(fresh: None) -> None:
    sleeper = subprocess.Popen(["sleep", "300"])
    stopping.track(sleeper)
    assert not stopping.stopped()
    stopping.stop_all()
    assert sleeper.wait(timeout=30) == -signal.SIGKILL
    assert stopping.stopped()
    with pytest.raises(SandboxError, match="interrupted"):
        Sandbox()


def test_a_process_that_ended_is_forgotten_and_harmless(fresh: None) -> None:
    done = subprocess.Popen(["true"])
    stopping.track(done)
    done.wait()
    stopping.stop_all()  # (kill on an ended process: nothing to do, no error)
    del done
    assert list(stopping._live) == []


@pytest.mark.parametrize(("before", "after"), [
    ("signal.default_int_handler", "stopping._interrupted"),
    ("signal.SIG_IGN", "signal.SIG_IGN"),  # (a background job of a script keeps ignoring)
    ("handler", "handler"),  # (a program's own handler is left alone)
])
def test_the_handler_replaces_only_pythons_own(before: str, after: str) -> None:
    code = (
        "import signal\n"
        "from problemtools_py.sandbox import stopping\n"
        "def handler(*args): pass\n"
        f"signal.signal(signal.SIGINT, {before})\n"
        "stopping.stop_on_interrupt(130)\n"
        f"print(signal.getsignal(signal.SIGINT) is {after})\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


def test_sigint_kills_the_servers_then_raises_keyboard_interrupt() -> None:
    """A real server under a real SIGINT: the run it serves ends at once (not at its 300 s
    limit), and the main thread gets KeyboardInterrupt."""
    code = (
        "import os, signal, threading, time\n"
        "from problemtools_py.sandbox import stopping\n"
        "from problemtools_py.sandbox.client import Sandbox\n"
        "from problemtools_py.sandbox.results import Limits\n"
        "stopping.stop_on_interrupt(130)\n"
        "box = Sandbox()\n"
        "ended = []\n"
        "def spin():\n"
        "    try:\n"
        "        box.run(['sh', '-c', 'while :; do :; done'],\n"
        "                limits=Limits(cpu_seconds=300, wall_seconds=300))\n"
        "    except Exception as exc:\n"
        "        ended.append(type(exc).__name__)\n"
        "    ended.append('done')\n"
        "worker = threading.Thread(target=spin)\n"
        "worker.start()\n"
        "time.sleep(1.5)\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(60)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
        "worker.join(60)\n"
        "print(ended[-1:], box.alive)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.stdout.split("\n")[:2] == ["interrupted", "['done'] False"], done.stderr


def test_a_process_stuck_after_ctrl_c_ends_after_the_grace() -> None:
    """A main thread that never gets to its end after Ctrl-C (as one blocked on an import
    lock an interrupted import left held): the watch ends it with the code it was given."""
    code = (
        "import os, signal, threading\n"
        "from problemtools_py.sandbox import stopping\n"
        "stopping.GRACE = 0.5\n"
        "stopping.stop_on_interrupt(130)\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    threading.Event().wait(60)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    threading.Event().wait(60)  # (stuck)\n"
        "print('not ended')\n"
    )
    done = subprocess.run([sys.executable, "-c", code, "stuck"], capture_output=True, text=True,
                          timeout=30, check=False)  # fmt: skip
    assert (done.returncode, done.stdout) == (130, "interrupted\n")
    assert done.stderr.endswith("-c: interrupted\n")
