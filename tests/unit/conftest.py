"""The fast tier: pure logic, no process started (no sandbox, no subprocess, no fork).

``pytest tests/unit`` runs it in well under a minute; the rest of ``tests/`` is the
end-to-end tier, which runs the real executables. A test here that starts a process
fails and says so: it belongs to the end-to-end tier."""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable
from typing import Any

import pytest


def _refusing(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is threading.main_thread():  # (the test's own)
            raise AssertionError(f"tests/unit/ starts no process ({name}): "
                                 "this test belongs to the end-to-end tier")  # fmt: skip
        return real(*args, **kwargs)  # (a thread an earlier end-to-end test left running)

    return refuse


@pytest.fixture(autouse=True)
def _no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fork", _refusing("fork", os.fork))
    monkeypatch.setattr(os, "posix_spawn", _refusing("posix_spawn", os.posix_spawn))
    execute = subprocess.Popen._execute_child  # type: ignore[attr-defined]
    monkeypatch.setattr(subprocess.Popen, "_execute_child", _refusing("subprocess", execute))
