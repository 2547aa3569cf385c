"""The real ``gradeserver`` command on loopback: 64 clients and 2,000 requests against a
forced-small queue (none lost, none answered twice, every reward the real ``gradecode``'s
on the same completions, 503s that succeed on retry), the port it really listens on,
and a graceful stop on SIGTERM and SIGINT that finishes running work and leaves no
process behind."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, TCPConnector

from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file
from problemtools_py.dataset.schema import tests_json as encode_tests
from problemtools_py.dataset.writer import RowWriter
from tests.grading.test_grader import nobody

BIN = Path(sys.executable).parent
ECHO = ("Print the input back.", [("5\n", "5\n"), ("7\n", "7\n")])
SLOW = ("Print one after a while.", [("x\n", "1\n")])
IDS = {"echo": problem_id(ECHO[0]), "slow": problem_id(SLOW[0])}
COMPLETIONS = [
    "```python\nprint(input())\n```",
    "```python\nprint(int(input()) + 1)\n```",  # wrong
    "```python\nprint(input()\n```",  # no valid Python
    "no code at all",
    "```python\nimport sys\nsys.exit(3)\n```",  # run-time error
]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("served")
    rows = sorted([(IDS["echo"], *ECHO), (IDS["slow"], *SLOW)])
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        for pid, statement, tests in rows:
            writer.add({"problem_id": pid, "statement": statement, "tests_json": encode_tests(tests),
                        "time_limit_s": 5.0, "origin_json": origin_json({})})  # fmt: skip
    return root


class Server:
    def __init__(self, dataset: Path, *options: str) -> None:
        self.process = subprocess.Popen(
            [str(BIN / "gradeserver"), str(dataset), "--port", "0", *options],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.startswith("gradeserver: listening on http://127.0.0.1:"), line
        self.url = line.rsplit(" ", 1)[-1].strip()
        assert not self.url.endswith(":0")  # the port it took, not the one asked for

    def stop(self, signum: int = signal.SIGTERM) -> tuple[int, str]:
        self.process.send_signal(signum)
        _, err = self.process.communicate(timeout=60)
        return self.process.returncode, err


@pytest.fixture
def served(dataset: Path) -> Iterator[Server]:
    server = Server(dataset, "--queue", "2", "-j", "2")
    yield server
    if server.process.poll() is None:
        server.process.kill()
    server.process.communicate(timeout=60)  # (closes its pipes)


def test_load_of_64_clients_with_a_small_queue(dataset: Path, served: Server,
                                              tmp_path: Path) -> None:
    items, expected = graded_by_gradecode(dataset, tmp_path, 2000)
    assert len(expected) == 2000
    answers, busy = asyncio.run(_load(served.url, items, clients=64))
    assert sorted(answers) == list(range(2000))  # none lost; none twice (asserted on arrival)
    assert answers == expected
    assert busy > 0  # the queue of 2 turned clients away, and each succeeded on retry
    code, _ = served.stop()
    assert code == 0
    assert nobody() == []


def graded_by_gradecode(dataset: Path, tmp_path: Path, count: int
                        ) -> tuple[list[dict[str, object]], dict[int, tuple[float, str]]]:  # fmt: skip
    """``count`` requests for /grade, and the real gradecode's grade of each."""
    items: list[dict[str, object]] = [
        {"problem_id": IDS["echo"], "completion": COMPLETIONS[i % len(COMPLETIONS)], "n": i}
        for i in range(count)]  # fmt: skip
    lines = tmp_path / "c.jsonl"
    lines.write_text("".join(json.dumps(item) + "\n" for item in items))
    graded = subprocess.run([str(BIN / "gradecode"), str(dataset), str(lines), "-q"],
                            capture_output=True, text=True, check=True)  # fmt: skip
    expected = {row["n"]: (row["reward"], row["status"])
                for row in map(json.loads, graded.stdout.splitlines())}  # fmt: skip
    return items, expected


async def _load(url: str, items: list[dict[str, object]],
                clients: int) -> tuple[dict[int, tuple[float, str]], int]:  # fmt: skip
    answers: dict[int, tuple[float, str]] = {}
    busy = 0
    pending = iter(items)
    async with ClientSession(connector=TCPConnector(limit=clients)) as client:

        async def worker() -> None:
            nonlocal busy
            for item in pending:
                while True:
                    async with client.post(url + "/grade", json=item) as response:
                        if response.status == 503:
                            assert response.headers["Retry-After"] == "1"
                            assert "busy" in (await response.json())["error"]
                            busy += 1
                            await asyncio.sleep(0.05)
                            continue
                        assert response.status == 200
                        got = await response.json()
                    assert got["n"] not in answers, "answered twice"
                    answers[got["n"]] = (got["reward"], got["status"])
                    break

        await asyncio.wait_for(asyncio.gather(*[worker() for _ in range(clients)]), 600)
    return answers, busy


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 0), (signal.SIGINT, 130)])
def test_a_stop_finishes_running_work(served: Server, signum: int, code: int) -> None:
    """A completion that runs 1.5 s is answered although the stop came mid-run; the
    command then exits (0 on SIGTERM, 130 on SIGINT) with no process left."""
    slow = "```python\nimport time\ntime.sleep(1.5)\nprint(1)\n```"

    async def run() -> dict[str, object]:
        async with ClientSession() as client:
            request = asyncio.ensure_future(
                client.post(served.url + "/grade",
                            json={"problem_id": IDS["slow"], "completion": slow})
            )  # fmt: skip
            for _ in range(100):  # until the server says it runs
                async with client.get(served.url + "/health") as health:
                    if (await health.json())["running"] == 1:
                        break
                await asyncio.sleep(0.05)
            served.process.send_signal(signum)
            response = await request
            got: dict[str, object] = await response.json()
            return got

    started = time.monotonic()
    got = asyncio.run(run())
    assert (got["reward"], got["status"]) == (1.0, "ok")
    assert time.monotonic() - started >= 1.5
    for _ in range(20):  # more signals while it stops (0.2 s: its cleanup takes ~1 s)
        served.process.send_signal(signum)
        time.sleep(0.01)
    returncode = served.process.wait(60)
    err = served.process.stderr.read() if served.process.stderr else ""
    assert returncode == code
    assert "stopping: finishing 1 running" in err and "gradeserver: stopped" in err
    assert nobody() == []


def test_a_port_in_use_is_a_clear_error(dataset: Path, served: Server) -> None:
    port = served.url.rsplit(":", 1)[-1]
    done = subprocess.run([str(BIN / "gradeserver"), str(dataset), "--port", port],
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 2  # the --port given cannot be had
    assert done.stderr == f"gradeserver: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert "Traceback" not in done.stderr


def test_on_a_local_ray_cluster(dataset: Path, tmp_path: Path) -> None:
    """``--ray local``: the same answers from actors on a cluster, and nothing left after."""
    items = [{"problem_id": IDS["echo"], "completion": c, "n": i}
             for i, c in enumerate(COMPLETIONS)]  # fmt: skip
    lines = tmp_path / "c.jsonl"
    lines.write_text("".join(json.dumps(item) + "\n" for item in items))
    graded = subprocess.run([str(BIN / "gradecode"), str(dataset), str(lines), "-q"],
                            capture_output=True, text=True, check=True)  # fmt: skip
    expected = [(r["reward"], r["status"]) for r in map(json.loads, graded.stdout.splitlines())]
    server = Server(dataset, "--ray", "local", "--ray-workers", "2")
    try:

        async def ask() -> tuple[list[tuple[float, str]], dict[str, Any], dict[str, Any]]:
            async with ClientSession() as client:
                async with client.post(server.url + "/grade", json=items) as response:
                    graded = [(r["reward"], r["status"]) for r in await response.json()]
                inline = {"tests": [["3\n", "3\n"]], "completion": COMPLETIONS[0]}
                async with client.post(server.url + "/grade", json=inline) as response:
                    one = await response.json()
                run = {"code": "print(input()[::-1])", "language": "python", "stdin": "ab\n"}
                async with client.post(server.url + "/run_code", json=run) as response:
                    ran = await response.json()
            return graded, one, ran

        got, one, ran = asyncio.run(ask())
        assert got == expected
        assert (one["reward"], one["status"]) == (1.0, "ok")
        assert ran["run_result"]["stdout"] == "ba\n"
        code, _ = server.stop()
        assert code == 0
    finally:
        if server.process.poll() is None:
            server.process.kill()
        server.process.communicate(timeout=60)
    assert nobody() == []


@pytest.mark.parametrize(("options", "status"), [((), 200), (("--on-bad-row", "raise"), 400)])
def test_on_bad_row_is_the_servers_setting(dataset: Path, options: tuple[str, ...], status: int) -> None:
    """Issue 58: an item without tests or an id is flagged by default; raised when asked."""
    import urllib.error
    import urllib.request

    server = Server(dataset, "-j", "1", *options)
    try:
        request = urllib.request.Request(server.url + "/grade", data=b'{"completion": "x"}',
                                         headers={"Content-Type": "application/json"})  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                got, body = response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            got, body = exc.code, json.loads(exc.read())
        assert got == status
        assert "problem_id or tests" in (body["message"] if status == 200 else body["error"])
    finally:
        assert server.stop()[0] == 0
