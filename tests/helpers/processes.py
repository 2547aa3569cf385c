"""Processes the sandboxes' users left behind, as tests look for them."""

from __future__ import annotations

from pathlib import Path


def _described(pids: list[int]) -> list[str]:
    found = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # (gone since)
        found.append(f"{pid} {cmd.strip()}")
    return found


def stray_processes(settle: float = 3.0) -> list[str]:
    """Processes of sandbox users whose sandboxes have ended (each outlived its run):
    never those of a sandbox still running, another suite's or a gradeserver's. One seen
    must still be there ``settle`` seconds on: a sandbox of another judge on the machine
    that has just ended leaves its killed processes exiting for a moment (a CI run once
    saw one, its command line already gone, while another verification ended)."""
    import time

    from problemtools_py.sandbox import identity

    deadline = time.monotonic() + settle
    while (found := _described(identity.strays())) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def processes_of(user: tuple[int, int]) -> list[str]:
    """Processes running as one sandbox's user (``Sandbox.user``)."""
    from problemtools_py.sandbox import identity

    return _described([pid for pid, uid in identity.processes().items() if uid == user[0]])
