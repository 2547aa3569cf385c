"""Trust boundary: a gradeserver client (docs/security.md). One client must not deny the
service to the others: connections that never finish their headers are closed (and the
connections at once bounded below the descriptor limit), and a long /grade list neither
holds every later request nor costs memory without bound."""

from __future__ import annotations

import asyncio
import json
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

BIN = Path(sys.executable).parent
SLOW = "```python\nx = 0\nfor i in range(3 * 10**6):\n    x += i\nprint(1)\n```"


def _start(nofile: int | None = None) -> tuple[subprocess.Popen[str], str]:
    def limit() -> None:
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    proc = subprocess.Popen([str(BIN / "gradeserver"), "--port", "0", "-j", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=limit)  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "listening on" in line, line + (proc.stderr.read() if proc.stderr else "")
    return proc, line.rsplit(" ", 1)[-1].strip()


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    proc.communicate(timeout=60)


def test_connections_that_never_finish_their_headers_do_not_lock_others_out() -> None:
    """1,100 connections each holding half a header, against a server allowed 1,024
    descriptors (the common default): it answered nobody, "Too many open files"."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1300 <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < 1300:
        pytest.skip("this process may not open 1,100 connections")
    proc, url = _start(nofile=1024)
    host, port = url.removeprefix("http://").split(":")
    held = []
    try:
        for _ in range(1100):
            try:
                sock = socket.create_connection((host, int(port)), timeout=5)
                sock.sendall(b"POST /grade HTTP/1.1\r\nHost: x\r\n")  # (and never the rest)
                held.append(sock)
            except OSError:
                break
        deadline, answered = time.monotonic() + 60, None
        while answered is None and time.monotonic() < deadline:
            try:
                reply = requests.get(f"{url}/health", timeout=5)
                if reply.status_code == 200:
                    answered = reply.json()
            except requests.RequestException:
                pass
            time.sleep(0.5)
        assert answered is not None and answered["status"] == "ok"
    finally:
        for sock in held:
            sock.close()
        _stop(proc)


def test_a_long_list_does_not_hold_a_later_request() -> None:
    """A list of 120 slow completions, then one honest request: answered while the list
    is still being graded (it waited for every item of the list)."""
    from aiohttp import ClientSession

    proc, url = _start()

    async def run() -> tuple[bool, int]:
        async with ClientSession() as client:
            items = [{"tests": [["", "1\n"]], "completion": SLOW, "n": n} for n in range(120)]
            long = asyncio.ensure_future(client.post(f"{url}/grade", json=items))
            await asyncio.sleep(1.0)  # (the list is admitted and grading)
            async with client.post(f"{url}/grade", json={"tests": [["", "1\n"]],
                                                         "completion": SLOW}) as one:  # fmt: skip
                assert one.status == 200 and (await one.json())["reward"] == 1.0
            list_done = long.done()
            async with client.get(f"{url}/metrics") as metrics:
                text = await metrics.text()
            graded = sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                         if line.startswith("gradeserver_results_total"))  # fmt: skip
            answer = await long
            assert answer.status == 200 and len(await answer.json()) == 120
            return list_done, int(graded)

    try:
        list_done, graded = asyncio.run(run())
    finally:
        _stop(proc)
    assert not list_done and graded < 100, graded


def test_a_list_past_the_item_cap_is_a_400() -> None:
    proc, url = _start()
    try:
        items = [{"tests": [["", "1\n"]], "completion": "x"}] * 5000
        reply = requests.post(f"{url}/grade", data=json.dumps(items), timeout=60)
        assert reply.status_code == 400 and "at most 4096 items" in reply.json()["error"]
    finally:
        _stop(proc)
