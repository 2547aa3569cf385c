"""grading/rewardhost.py: a process's forks grade through one reward host (issue 58:
verl's PRIME pool started a grader in every fork, for every batch)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from problemtools_py.grading import rewardhost

ECHO = "```python\nprint(input())\n```"
TESTS = '[["1\\n", "1\\n"], ["2\\n", "2\\n"]]'

# A trainer process: a pool of forks (as verl's PRIME manager makes for each batch), each
# scoring a completion; the forks' own graders would show as sandbox servers they started.
TRAINER = f"""
import json, os, sys, time
from concurrent.futures import ProcessPoolExecutor
import psutil
from problemtools_py import rewards

def score(args):
    solution, kwargs = args
    try:
        got = rewards.compute_score("code", solution, json.loads({TESTS!r}), None, **kwargs)
    except rewards.RewardError as exc:
        got = {{"raised": type(exc).__name__, "message": str(exc)}}
    mine = [p for p in psutil.Process().children() if "--host" not in p.cmdline()]
    return got, len(mine)

for batch in range(2):
    with ProcessPoolExecutor(4) as pool:
        found = list(pool.map(score, [({ECHO!r}, {{}}), ("```python\\nprint(0)\\n```", {{}}),
                                      (None, {{}}), ({ECHO!r}, {{"time_limit": 0, "on_bad_row": "raise"}})]))
    print(json.dumps(found), flush=True)
hosts = [p.pid for p in psutil.process_iter(["cmdline"])
         if "--host" in (p.info["cmdline"] or []) and str(os.getpid()) in (p.info["cmdline"] or [])]
print(json.dumps(hosts), flush=True)
if sys.argv[1:] == ["kill"]:  # (a trainer that dies: no atexit, no rewards.close)
    os.kill(os.getpid(), 9)
"""


def _trainer(*args: str, **env: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", TRAINER, *args], capture_output=True,
                          text=True, timeout=300, check=False, env={**os.environ, **env})  # fmt: skip
    assert done.returncode == (-9 if args == ("kill",) else 0), done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("end", ["exit", "kill"])
def test_a_processs_forks_grade_through_one_host_that_ends_with_it(end: str) -> None:
    """Both batches through one host; it ends with its trainer, whether the trainer
    closes its rewards at exit or is killed."""
    import json

    lines = _trainer(end)
    for line in lines[:2]:
        found = json.loads(line)
        assert [got.get("status") or got.get("raised") for got, _ in found] == [
            "ok", "wrong_answer", "no_code", "RewardError"
        ]  # (the host's error raised in the fork as the same class)
        assert "time_limit must be in (0, 120]" in found[3][0]["message"]
        assert all(children == 0 for _, children in found)  # (no fork started a grader)
    (host,) = json.loads(lines[2])  # (one host for both batches, alive while its trainer is)
    deadline = time.monotonic() + 30
    while psutil.pid_exists(host) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not psutil.pid_exists(host) or psutil.Process(host).status() == psutil.STATUS_ZOMBIE


def test_without_a_host_each_fork_grades_on_its_own() -> None:
    import json

    lines = _trainer("exit", **{rewardhost.HOST_ENV: "0"})
    found = json.loads(lines[0])
    assert [got.get("status") or got.get("raised") for got, _ in found][:3] == [
        "ok", "wrong_answer", "no_code"
    ]  # fmt: skip
    assert found[0][1] > 0 and json.loads(lines[2]) == []  # (its own sandboxes; no host)


def test_the_wire_is_length_and_json_and_bounded() -> None:
    left, right = socket.socketpair()
    with left, right:
        rewardhost.send(left, {"args": [1, "x"], "kwargs": {}})
        assert rewardhost.receive(right) == {"args": [1, "x"], "kwargs": {}}
        left.sendall((rewardhost.MAX_MESSAGE + 1).to_bytes(4, "big"))
        with pytest.raises(ValueError, match="at most"):
            rewardhost.receive(right)
        left.sendall(b"\0\0\0\x02[]")
        with pytest.raises(ValueError, match="a JSON object"):
            rewardhost.receive(right)
        left.close()
        assert rewardhost.receive(right) is None


def test_the_sockets_directory_is_this_users_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another user's directory, or one others may enter, is no place for the host."""
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    monkeypatch.setattr(rewardhost, "ROOT_DIR", str(shared))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    with pytest.raises(rewardhost.HostUnavailable, match="of this user's alone"):
        rewardhost.host_dir()
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "private")
    (tmp_path / "private").mkdir(mode=0o700)
    monkeypatch.setattr(rewardhost, "ROOT_DIR", str(link))
    with pytest.raises(rewardhost.HostUnavailable):
        rewardhost.host_dir()
