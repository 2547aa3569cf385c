"""Shared fixtures: sample packages, copies of them to break, and a verify helper."""

from __future__ import annotations

import atexit
import contextlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.packages import SAMPLES

from problemtools_py.sandbox.client import Sandbox

# Builds and validator verdicts are cached by content in the user's cache directory; the
# tests get a cache of their own so that nothing cached by other code versions counts
# (removed when the test run ends: each run used to leave one in /tmp).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="ptpy-test-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], ignore_errors=True)


@pytest.fixture
def copy_sample(tmp_path: Path) -> Callable[..., Path]:
    """Copy a sample package into tmp_path (optionally under another directory name)."""

    def make(name: str, dest_name: str | None = None) -> Path:
        dest = tmp_path / (dest_name or name)
        shutil.copytree(SAMPLES / name, dest, symlinks=True)
        return dest

    return make


pytest_plugins = ["helpers.judgekit"]


def _pypi_tool(package: str, command: str) -> Path:
    """``command`` of ``package`` from PyPI, in a virtual environment of its own, kept in
    the test cache; the test is skipped when PyPI cannot be reached."""

    from problemtools_py.cachedir import cache_root

    venv = cache_root() / f"{package}-venv"
    found = venv / "bin" / command
    if not found.exists():
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", package],
                             capture_output=True, text=True, check=False)  # fmt: skip
        if pip.returncode != 0:
            pytest.skip(f"cannot install {package} from PyPI: {pip.stderr[-500:]}")
    return found


@pytest.fixture(scope="module")
def full_box() -> Iterator[Sandbox]:
    """A sandbox with full isolation (namespaces, cgroups) for a module's tests, which are
    skipped where it cannot be had."""
    with Sandbox() as sandbox:
        if sandbox.isolation != "full":
            pytest.skip(f"no full isolation here (cgroups, namespaces): {sandbox.isolation}")
        yield sandbox


@pytest.fixture(scope="session")
def bt() -> Path:
    """BAPCtools' ``bt``, from PyPI."""
    return _pypi_tool("bapctools", "bt")


@pytest.fixture(scope="session")
def problemtools() -> Path:
    """Kattis problemtools' ``verifyproblem``, from PyPI."""
    return _pypi_tool("problemtools", "verifyproblem")


# -- each test owns its process state (issue 63) -------------------------------------------
# What a test leaves changed in the test process is inherited by every program a later test
# starts: a SIGINT left ignored makes a later Ctrl-C test's child ignore it and a python3
# reference run end otherwise than the jail (which resets dispositions). So each test's
# changes to signal dispositions, the signal mask, the environment, the working directory,
# the umask and the resource limits are undone after it, and listed at the end of the run.
_SIGNALS = [s for s in signal.valid_signals() if s not in (signal.SIGKILL, signal.SIGSTOP)]


def _as_from_a_terminal() -> None:
    """The dispositions a command started from a terminal has. A suite started as a
    script's background job (``pytest &`` in a non-interactive shell, a CI runner's
    wrapper) inherits SIGINT and SIGQUIT ignored, and SIG_IGN survives exec: every python3
    reference run and every child a Ctrl-C test signals would ignore SIGINT too (the
    cause of issue 63's 13 failures; `timeout` hides it, as it resets them)."""
    for number in _SIGNALS:
        if number != signal.SIGPIPE and signal.getsignal(number) == signal.SIG_IGN:
            default = signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL
            signal.signal(number, default)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


_as_from_a_terminal()
_LIMITS = [getattr(resource, n) for n in ("RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_STACK",
                                          "RLIMIT_CORE", "RLIMIT_AS", "RLIMIT_CPU")]  # fmt: skip
_changed: list[str] = []


def _process_state() -> dict[str, object]:
    return {
        "signals": {s: signal.getsignal(s) for s in _SIGNALS},
        "mask": signal.pthread_sigmask(signal.SIG_BLOCK, []),
        "environ": {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"},
        "cwd": os.getcwd(),
        "umask": os.umask(os.umask(0o022)),
        "limits": {n: resource.getrlimit(n) for n in _LIMITS},
    }


def _restore(before: dict[str, object]) -> None:
    signals = before["signals"]
    assert isinstance(signals, dict)
    if threading.current_thread() is threading.main_thread():
        for number, action in signals.items():
            if signal.getsignal(number) != action and action is not None:
                signal.signal(number, action)
        mask = before["mask"]
        assert isinstance(mask, set)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    environ = before["environ"]
    assert isinstance(environ, dict)
    for key in [k for k in os.environ if k not in environ and k != "PYTEST_CURRENT_TEST"]:
        del os.environ[key]  # (pytest's own record of the running test is left to it)
    os.environ.update(environ)
    os.chdir(str(before["cwd"]))
    umask = before["umask"]
    assert isinstance(umask, int)
    os.umask(umask)
    limits = before["limits"]
    assert isinstance(limits, dict)
    for number, value in limits.items():
        with contextlib.suppress(ValueError, OSError):  # (a hard limit lowered stays so)
            resource.setrlimit(number, value)


@pytest.fixture(autouse=True)
def _owns_its_process_state(request: pytest.FixtureRequest) -> Iterator[None]:
    before = _process_state()
    yield
    after = _process_state()
    if after != before:
        what = sorted(key for key in before if before[key] != after[key])
        _changed.append(f"{request.node.nodeid}: {', '.join(what)}")
        _restore(before)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Which tests left the process state changed (undone after each), by module: a
    command run in-process installs its Ctrl-C handler, for one."""
    if not _changed:
        return
    modules: dict[tuple[str, str], int] = {}
    for line in _changed:
        test, what = line.rsplit(": ", 1)
        key = (test.split("::")[0], what)
        modules[key] = modules.get(key, 0) + 1
    terminalreporter.write_line(f"process state changed by {len(_changed)} tests, undone after "
                                "each (module: tests, what):")  # fmt: skip
    for (module, what), count in sorted(modules.items()):
        terminalreporter.write_line(f"  {module}: {count}, {what}")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--shuffle", type=int, default=None, metavar="SEED",
                     help="run the modules in a random order, and each module's tests in a "
                          "random order, drawn from SEED (to find tests that depend on "
                          "what ran before them)")  # fmt: skip


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    seed = config.getoption("--shuffle")
    if seed is None:
        return
    import random

    draw = random.Random(seed)
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:  # (a module's tests kept together: its fixtures are made once)
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    order = list(modules)
    draw.shuffle(order)
    items[:] = []
    for name in order:
        tests = modules[name]
        draw.shuffle(tests)
        items.extend(tests)
