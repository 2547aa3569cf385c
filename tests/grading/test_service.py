"""gradeserver on loopback: SandboxFusion's /run_code and /submit, our /grade, health and
metrics, every malformed request a 4xx with a JSON error, a full queue a 503 with
Retry-After, and a load of concurrent clients whose rewards equal the Grader's."""

from __future__ import annotations

import asyncio
import io
import json
import shutil
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer
from helpers.packages import SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from problemtools_py.grading.grader import Grader
from problemtools_py.grading.results import Settings
from problemtools_py.grading.service.server import Service
from tests.grading.test_grader import nobody

ECHO = "```python\nprint(input())\n```"
TESTS = [["1\n", "1\n"], ["2\n", "2\n"]]


@pytest.fixture(scope="module")
def grader() -> Iterator[Grader]:
    with Grader(None, Settings(languages=("python3", "cpp", "java")), jobs=2) as made:
        yield made


def serve(
    grader: Grader,
    check: Callable[[ClientSession, str], Awaitable[None]],
    queue: int = 64,
    body_seconds: float | None = None,
    on_bad_row: str = "score",
) -> None:
    async def main() -> None:
        service = Service(grader, queue)
        service.on_bad_row = on_bad_row
        if body_seconds is not None:
            service.body_seconds = body_seconds
        server = TestServer(service.app(), host="127.0.0.1")
        await server.start_server()
        try:
            async with ClientSession() as client:
                await check(client, str(server.make_url("/")))
        finally:
            await server.close()

    asyncio.run(main())


def test_run_code_as_sandboxfusion_answers(grader: Grader) -> None:
    async def check(client: ClientSession, url: str) -> None:
        body = {"code": "print(input()[::-1])", "language": "python", "stdin": "abc\n"}
        async with client.post(url + "run_code", json=body) as response:
            got = await response.json()
        assert got["status"] == "Success" and got["run_result"]["stdout"] == "cba\n"
        assert got["run_result"]["status"] == "Finished" and got["run_result"]["return_code"] == 0
        body = {"code": "int main( {", "language": "cpp"}
        async with client.post(url + "run_code", json=body) as response:
            got = await response.json()
        # (SandboxFusion's vocabulary: the compiler finished, with a non-zero code)
        assert got["status"] == "Failed" and got["compile_result"]["status"] == "Finished"
        assert got["compile_result"]["return_code"] == 1
        body = {"code": "while True: pass", "language": "python", "run_timeout": 0.5}
        async with client.post(url + "run_code", json=body) as response:
            got = await response.json()
        assert got["run_result"]["status"] == "TimeLimitExceeded"

    serve(grader, check)


def test_submit_as_sandboxfusion_answers(grader: Grader) -> None:
    cases = [{"input": {"stdin": s}, "output": {"stdout": o}} for s, o in TESTS]

    async def check(client: ClientSession, url: str) -> None:
        body: dict[str, Any] = {
            "dataset": "x",
            "id": 7,
            "completion": ECHO,
            "config": {"language": "python", "provided_data": {"test": cases}},
        }
        async with client.post(url + "submit", json=body) as response:
            got = await response.json()
        assert got["accepted"] is True and got["id"] == 7 and len(got["tests"]) == 2
        assert got["extracted_code"].strip() == "print(input())"
        body["completion"] = "```python\nprint(1)\n```"
        body["config"]["provided_data"]["test"] = json.dumps(cases)  # as a JSON string too
        async with client.post(url + "submit", json=body) as response:
            got = await response.json()
        assert got["accepted"] is False and [t["passed"] for t in got["tests"]] == [True, False]
        body["config"]["provided_data"]["test"] = cases[::-1] * 2  # (the first fails)
        async with client.post(url + "submit", json=body) as response:
            got = await response.json()
        assert [t["passed"] for t in got["tests"]] == [False]  # (the rest: cancelled, left out)
        body["config"]["extra"] = {"run_all_cases": True}
        async with client.post(url + "submit", json=body) as response:
            got = await response.json()
        assert [t["passed"] for t in got["tests"]] == [False, True, False, True]
        body["completion"] = "I would print the input back."  # (issue 58: it was a 500)
        async with client.post(url + "submit", json=body) as response:
            assert response.status == 200
            got = await response.json()
        assert (got["accepted"], got["extracted_code"], got["extracted_type"]) == (
            False,
            "",
            "empty",
        )
        assert [t["passed"] for t in got["tests"]] == [False] * 4  # (the empty program ran)

    serve(grader, check)


def test_grade_takes_a_rows_memory_limit(grader: Grader) -> None:
    """Issue 58: an item's memory limit (ours, open-r1's MB, CodeContests' bytes)."""
    hog = "```python\nx = bytearray(600 << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\nprint(input())\n```"

    async def check(client: ClientSession, url: str) -> None:
        items = [{"tests": TESTS, "completion": hog, name: value} for name, value in
                 (("memory_mb", 256), ("memory_limit", 256), ("memory_limit_bytes", 256 << 20),
                  ("memory_limit", 1024))]  # fmt: skip
        items[-1]["time_limit"] = 20  # (the first touch of a fresh VM's memory is slow)
        async with client.post(url + "grade", json=items) as response:
            got = await response.json()
        assert [g["status"] for g in got] == ["memory"] * 3 + ["ok"]
        async with client.post(url + "grade", json={**items[0], "memory_mb": -5}) as response:
            flagged = await response.json()
            assert (flagged["status"], flagged["memory_mb"]) == ("bad_row", -5)
            assert "memory_mb must be a positive number" in flagged["message"]

    serve(grader, check)


def test_grade_one_or_many_and_metrics(grader: Grader) -> None:
    async def check(client: ClientSession, url: str) -> None:
        async with client.post(
            url + "grade", json={"tests": TESTS, "completion": ECHO, "tag": "a"}
        ) as response:
            one = await response.json()
        assert (one["reward"], one["status"], one["tag"]) == (1.0, "ok", "a")
        many = [
            {"tests": TESTS, "completion": ECHO},
            {"tests": TESTS, "completion": "```cpp\nint main(){}\n```"},
        ]
        async with client.post(url + "grade", json=many) as response:
            got = await response.json()
        assert [g["status"] for g in got] == ["ok", "wrong_answer"]
        async with client.get(url + "health") as response:
            assert (await response.json())["status"] == "ok"
        async with client.get(url + "metrics") as response:
            text = await response.text()
        assert 'gradeserver_results_total{status="ok"} 2' in text
        assert "gradeserver_queue_depth 0" in text

    serve(grader, check)


MALFORMED = (
        ("grade", b"{not json", 400, "not JSON"),        ("grade", b"{not json", 400, "not JSON"),
        ("grade", b'{"completion": 5}', 400, "completion"),
        ("grade", b'{"completion": "x"}', 400, "problem_id or tests"),
        ("grade", b'{"completion": "x", "tests": [["1"]]}', 400, "not a pair"),
        ("grade", b'{"completion": "x", "tests": []}', 400, "no tests"),
        (
            "grade",
            b'{"completion": "x", "tests": [["1", "1"]], "language": "python2"}',
            400,
            "Python 2 is not graded",
        ),
        (
            "grade",
            b'{"completion": "x", "tests": {"inputs": ["1"], "outputs": []}}',
            400,
            "1 inputs but 0 outputs",
        ),
        ("run_code", b'{"language": "python"}', 400, "needs code"),
        ("run_code", b'{"code": "1", "language": "cobolx"}', 400, "unknown language"),
        ("submit", b'{"completion": "x", "config": {"provided_data": {}}}', 400, "list the cases"),
        ("grade", b'{"completion": "' + b"x" * (17 << 20) + b'"}', 413, "too large"),
        ("grade", b'{"completion": "x", "problem_id": "nope"}', 404, "no problem with id 'nope'"),
        (
            "grade",
            b'[{"completion": "x", "tests": [["1", "1"]]}, {"completion": "x", '
            b'"problem_id": "nope"}]',
            404,
            "no problem with id 'nope'",
        ),
        (
            "grade",
            b'{"completion": "x", "tests": [["1", "1"]], "language": "cobolx"}',
            400,
            "unknown language",
        ),
        # (each of these was a 500 with a traceback in the server's log)
        (
            "run_code",
            b'{"code": "1", "language": "python", "run_timeout": "abc"}',
            400,
            "run_timeout 'abc' is no number of seconds",
        ),
        (
            "run_code",
            b'{"code": "1", "language": "python", "run_timeout": [1]}',
            400,
            "run_timeout [1] is no number of seconds",
        ),
        (
            "run_code",
            b'{"code": "1", "language": "python", "run_timeout": 1e9}',
            400,
            "run_timeout must be in (0, 900] seconds",
        ),  # (a grader held for 30 years)
        (
            "submit",
            b'{"completion": "x", "config": {"run_timeout": {"a": 1}, "provided_data": '
            b'{"test": [{"input": {"stdin": ""}, "output": {"stdout": ""}}]}}}',
            400,
            "run_timeout must be",
        ),
        (
            "submit",
            b'{"completion": "x", "config": {"provided_data": {"test": [{"input": 0, '
            b'"output": {"stdout": ""}}]}}}',
            400,
            "each case is {input: {stdin}",
        ),
        (
            "submit",
            b'{"completion": "x", "config": {"provided_data": {"test": [{"input": '
            b'{"stdin": ""}, "output": "x"}]}}}',
            400,
            "each case is {input: {stdin}",
        ),
        (
            "grade",
            b'{"completion": "x", "tests": [["1", "1"]], "time_limit": -2}',
            400,
            "time_limit must be in (0, 120] seconds",
        ),
        (
            "grade",
            b'{"completion": "x", "tests": [["1", "1"]], "time_limit": NaN}',
            400,
            "time_limit must be",
        ),
        ("grade", b'[{"completion": "x", "tests": [["1", "1"]]}, 7]', 400, "each item is a JSON object"),
        ("grade", b'{"completion": "x", "tests": [["1", "\\ud800"]]}', 400, "no valid Unicode"),
)  # fmt: skip


@pytest.mark.parametrize(("path", "body", "status", "says"), MALFORMED)
def test_malformed_requests(grader: Grader, path: str, body: bytes, status: int, says: str) -> None:
    """With --on-bad-row raise: a /grade item that cannot be graded is the request's 400."""
    async def check(client: ClientSession, url: str) -> None:
        async with client.post(
            url + path, data=io.BytesIO(body), headers={"Content-Type": "application/json"}
        ) as response:
            assert response.status == status
            assert says in (await response.json())["error"]
        async with client.post(url + "grade", json={"tests": TESTS, "completion": ECHO}) as ok:
            assert (await ok.json())["status"] == "ok"  # and the server keeps serving

    serve(grader, check, on_bad_row="raise")


ITEMS = [(body, says) for path, body, status, says in MALFORMED
         if path == "grade" and status == 400 and body != b"{not json"]  # fmt: skip


@pytest.mark.parametrize(("body", "says"), ITEMS)
def test_an_item_that_cannot_be_graded_is_flagged_in_its_place(
    grader: Grader, body: bytes, says: str
) -> None:
    """By default (issue 58) such an item is answered, in its place, with status bad_row
    and why; the other items of its list are graded."""

    async def check(client: ClientSession, url: str) -> None:
        item = json.loads(body)
        items = item if isinstance(item, list) else [item]
        good = {"tests": TESTS, "completion": ECHO, "tag": "good"}
        async with client.post(url + "grade", json=[good, *items, good]) as response:
            assert response.status == 200
            got = await response.json()
        assert [g["status"] for g in got][0::len(got) - 1] == ["ok", "ok"]
        flagged = [g for g in got[1:-1] if g["status"] == "bad_row"]
        assert len(flagged) == 1 and says in flagged[0]["message"], got
        assert flagged[0]["reward"] is None

    serve(grader, check)


JAVA = """```java
import java.util.Scanner;
public class Main {
    public static void main(String[] args) {
        System.out.println(new Scanner(System.in).nextLine());
    }
}
```"""
CPP = "```cpp\n#include <iostream>\nint main(){int x;std::cin>>x;std::cout<<x<<std::endl;}\n```"
HOSTILE = [
    "import os\nfor _ in range(10000):\n    os.fork()\nprint(input())",
    "print(open('/etc/shadow').read())",
    "import socket\nsocket.create_connection(('127.0.0.1', 22), timeout=1)\nprint(input())",
    "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(30)\nprint('x')",
]


@pytest.mark.parametrize(
    ("completion", "reward", "status"),
    [
        (JAVA, 1.0, "ok"),
        (CPP, 1.0, "ok"),
        ("```cpp\nint main( {\n```", 0.0, "compile_error"),
        *[(f"```python\n{code}\n```", 0.0, None) for code in HOSTILE],
    ],
    ids=["java", "cpp", "cpp-compile-error", "fork-bomb", "shadow", "network", "daemon"],
)
def test_grade_languages_and_hostile_completions(
    grader: Grader, completion: str, reward: float, status: str | None
) -> None:
    async def check(client: ClientSession, url: str) -> None:
        async with client.post(
            url + "grade", json={"tests": TESTS, "completion": completion}
        ) as response:
            got = await response.json()
        assert got["reward"] == reward, got
        assert status is None or got["status"] == status
        async with client.post(url + "grade", json={"tests": TESTS, "completion": ECHO}) as ok:
            assert (await ok.json())["status"] == "ok"

    serve(grader, check)
    assert nobody() == []


SHAPES = [  # (tests as the common datasets hold them, the item's other fields)
    ({"input_output": json.dumps({"inputs": ["1\n", "2\n"], "outputs": ["1\n", "2\n"]})}, {}),
    ([{"input": "1\n", "output": "1\n", "testtype": "stdin"}], {"language": "Python 3"}),
    ({"public_tests": {"input": ["1\n"], "output": ["1\n"]}}, {"language": "py"}),
    ({"inputs": [[2, 3]], "outputs": [5]}, {"fn_name": "add"}),
]


@pytest.mark.parametrize(("tests", "fields"), SHAPES, ids=["apps", "lcb", "codecontests", "call"])
def test_grade_takes_the_datasets_shapes(
    grader: Grader, tests: object, fields: dict[str, str]
) -> None:
    completion = "```python\ndef add(a, b):\n    return a + b\n```" if "fn_name" in fields else ECHO

    async def check(client: ClientSession, url: str) -> None:
        item = {"tests": tests, "completion": completion, **fields}
        async with client.post(url + "grade", json=item) as response:
            got = await response.json()
        assert (got["reward"], got["status"]) == (1.0, "ok"), got

    serve(grader, check)


def test_load_with_a_small_queue(grader: Grader) -> None:
    """32 clients, 200 requests: none lost, none answered twice, every reward the
    Grader's own; with a queue of 2, some get 503 + Retry-After and succeed on retry."""
    completions = [ECHO if i % 3 else "```python\nprint(0)\n```" for i in range(200)]
    pairs = tuple((stdin, stdout) for stdin, stdout in TESTS)
    expected = [grader.grade_tests(pairs, 2.0, c).reward for c in completions[:3]]

    async def check(client: ClientSession, url: str) -> None:
        answers: dict[int, float | None] = {}
        busy = 0
        queue: asyncio.Queue[int] = asyncio.Queue()
        for index in range(len(completions)):
            queue.put_nowait(index)

        async def worker() -> None:
            nonlocal busy
            while not queue.empty():
                index = queue.get_nowait()
                while True:
                    body = {"tests": TESTS, "completion": completions[index], "n": index}
                    async with client.post(url + "grade", json=body) as response:
                        if response.status == 503:
                            assert response.headers["Retry-After"] == "1"
                            busy += 1
                            await asyncio.sleep(0.05)
                            continue
                        got = await response.json()
                    assert got["n"] not in answers
                    answers[got["n"]] = got["reward"]
                    break

        await asyncio.gather(*[worker() for _ in range(32)])
        assert sorted(answers) == list(range(len(completions)))
        assert all(answers[i] == expected[i % 3] for i in answers)
        assert busy > 0

    serve(grader, check, queue=2)


def test_a_package_served_without_a_reward_is_a_404_saying_why(tmp_path: Path) -> None:
    """Served from a directory of packages, an id whose package kattis2parquet leaves out
    (here: no accepted Python 3 submission to check its tests by) exists, yet has no
    reward: the 404 says that, not that no problem has the id."""
    shutil.copytree(SAMPLES / "hello", tmp_path / "hello")
    shutil.rmtree(tmp_path / "hello" / "submissions")
    with Grader(tmp_path, jobs=1) as served:
        (pid,) = served.problems.ids()

        async def check(client: ClientSession, url: str) -> None:
            body = {"problem_id": pid, "completion": "```python\nprint(1)\n```"}
            async with client.post(url + "grade", json=body) as response:
                assert response.status == 404
                error = (await response.json())["error"]
            assert error.startswith(f"{tmp_path / 'hello'}: kattis2parquet leaves this "
                                    "package out (no passing Python 3 reference")  # fmt: skip

        serve(served, check)


def test_a_body_announced_and_not_sent_is_given_up(grader: Grader) -> None:
    """A Content-Length of 100 with 8 bytes sent held a handler until the client gave up."""

    async def check(client: ClientSession, url: str) -> None:
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"POST /run_code HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"code\":")  # fmt: skip
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(4096), 10)
        writer.close()
        assert answer.startswith(b"HTTP/1.1 400") and b"did not arrive within 1 s" in answer

    serve(grader, check, body_seconds=1.0)


@pytest.fixture(scope="module")
def loopback(grader: Grader) -> Iterator[str]:
    """One service on loopback for the module's property tests, in a thread of its own."""
    import threading

    from aiohttp import web

    loop = asyncio.new_event_loop()
    started: list[str] = []
    ready = threading.Event()

    async def start() -> web.AppRunner:
        runner = web.AppRunner(Service(grader, 64).app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        started.append(f"http://127.0.0.1:{port}/")
        ready.set()
        return runner

    runner = loop.run_until_complete(start())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    assert ready.wait(30)
    yield started[0]
    asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(60)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(30)
    loop.close()


VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                   st.lists(st.text(max_size=4), max_size=2))  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    item=st.dictionaries(
        st.sampled_from(["completion", "tests", "time_limit", "language", "fn_name",
                         "memory_mb", "memory_limit", "problem_id", "judge_json"]),
        st.one_of(VALUES, st.just(TESTS), st.just(ECHO),
                  st.lists(st.lists(VALUES, max_size=2), max_size=2)), max_size=5),
)  # fmt: skip
def test_every_item_gives_a_result_or_the_flag(loopback: str, item: dict[str, Any]) -> None:
    """Issue 58: whatever an item holds, /grade answers it with a result (a float reward)
    or flagged as bad_row, never a 5xx (an unknown problem id: its 404)."""
    import urllib.error
    import urllib.request

    data = json.dumps([item]).encode()
    request = urllib.request.Request(loopback + "grade", data=data,
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            (got,) = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        assert exc.code == 404, exc.read()
        (got,) = json.loads(exc.read())["results"]
        assert got["status"] == "unknown_problem"
        return
    if got["status"] == "bad_row":
        assert got["reward"] is None and got["message"], got
    else:  # (no reward only when the grader's side failed)
        assert isinstance(got["reward"], float) or got["status"] in ("grader_error",
                                                                     "harness_overload"), got  # fmt: skip


@pytest.mark.parametrize("limit", [0, -1, 120.5, 900, "2", {"seconds": 1, "nanos": 500_000_000}, 2])
def test_a_time_limit_is_read_as_compute_score_reads_it(grader: Grader, limit: object) -> None:
    """Issue 59: /grade allowed a test 900 s (and read 0 as its default) where
    compute_score allowed 120 and flagged 0; one reading now serves both."""
    from problemtools_py.rewards import compute_score

    row = compute_score("x", ECHO, TESTS, {"time_limit": limit})

    async def check(client: ClientSession, url: str) -> None:
        async with client.post(url + "grade", json={"tests": TESTS, "completion": ECHO,
                                                    "time_limit": limit}) as response:  # fmt: skip
            got = await response.json()
        assert (got["status"] == "bad_row") == (row["status"] == "bad_row"), (got, row)
        assert got["status"] == row["status"]

    serve(grader, check)


@pytest.mark.parametrize("language", ["python", "Python 3", 3, "python2", 1, 99, "cobolx"])
def test_a_language_is_read_as_compute_score_reads_it(grader: Grader, language: object) -> None:
    """Issue 59: one reading of a language for both (CodeContests' numbers on /grade too)."""
    from problemtools_py.rewards import compute_score

    row = compute_score("x", ECHO, TESTS, {"language": language})

    async def check(client: ClientSession, url: str) -> None:
        async with client.post(url + "grade", json={"tests": TESTS, "completion": ECHO,
                                                    "language": language}) as response:  # fmt: skip
            got = await response.json()
        assert got["status"] == row["status"], (got, row)

    serve(grader, check)
