"""gradeserver through SandboxFusion's own client (``sandbox-fusion`` from PyPI), as a
trainer calls it (issue 43): each case is a request whose answer the client once raised
on, retried for seconds, or read with another meaning than SandboxFusion's."""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
from helpers.clientcode import client_file, load
from sandbox_fusion import (
    RunCodeRequest,
    RunStatus,
    SubmitRequest,
    SummaryMapping,
    TestConfig,
    run_code,
    submit,
)
from sandbox_fusion import summary_run_code_result as summary

MAPPING = SummaryMapping(Success="ok", Failed="failed", CompileFailed="compile_failed",
                         CompileTimeout="compile_timeout", RunFailed="run_failed",
                         RunTimeout="run_timeout")  # fmt: skip


def start(*options: str) -> tuple[subprocess.Popen[str], str]:
    server = Path(sys.executable).parent / "gradeserver"
    jobs = [] if "-j" in options else ["-j", "2"]
    proc = subprocess.Popen([str(server), "--port", "0", *jobs, *options],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"http://[\d.]+:\d+", line)
    assert found is not None, line
    return proc, found.group(0)


def stop(proc: subprocess.Popen[str]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=60)
    if proc.stdout is not None:
        proc.stdout.close()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    proc, address = start()
    yield address
    stop(proc)


def run(url: str, code: str, language: str = "python", **fields: object) -> object:
    return run_code(RunCodeRequest(code=code, language=language, **fields), endpoint=url,
                    max_attempts=5)  # fmt: skip


def test_run_timeout_is_wall_clock(url: str) -> None:
    start_at = time.monotonic()
    got = run(url, "import time\ntime.sleep(3)\nprint('late')", run_timeout=1)
    assert summary(got, MAPPING) == "run_timeout"
    assert time.monotonic() - start_at < 2.5
    assert got.run_result.cpu_time is not None and got.run_result.cpu_time < 0.5


def test_a_memory_kill_has_a_return_code(url: str) -> None:
    # (bytearray zero-fills: the memory limit is met after ~2 GiB of first touches, seconds
    # of CPU on a slow VM; a roomy run_timeout keeps the time limit from coming first)
    got = run(url, "x = bytearray(8 << 30)\nprint(len(x))", run_timeout=30, memory_limit_MB=512)
    assert got.run_result.return_code not in (None, 0)
    assert summary(got, MAPPING) == "run_failed"  # (raised "no return code" before)


def test_ten_megabytes_of_output_are_truncated_not_failed(url: str) -> None:
    got = run(url, "import sys\nsys.stdout.write('x' * (10 << 20))\nprint('done', file=sys.stderr)")
    assert summary(got, MAPPING) == "ok"
    assert got.run_result.return_code == 0 and len(got.run_result.stdout) == 8 << 20
    assert "done" in got.run_result.stderr


def test_compile_results_in_sandboxfusions_vocabulary(url: str) -> None:
    bad = run(url, "int main( {", "cpp")
    assert bad.compile_result.status == "Finished" and bad.compile_result.return_code != 0
    assert summary(bad, MAPPING) == "compile_failed"
    good = run(url, '#include <cstdio>\nint main(){puts("hi");}', "cpp")
    assert good.compile_result is not None and good.compile_result.return_code == 0
    assert summary(good, MAPPING) == "ok" and good.run_result.stdout == "hi\n"


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def test_files_are_given_and_fetched(url: str) -> None:
    code = ("import os\nprint(open('data/in.txt').read(), os.getcwd())\n"
            "open('out.txt', 'w').write('made')\nos.symlink('/etc/passwd', 'link')\n"
            "os.mkdir('d')\nos.symlink('/etc', 'up')\n")  # fmt: skip
    got = run(url, code, files={"data/in.txt": b64("41"), "none.txt": None},
              fetch_files=["out.txt", "data/in.txt", "link", "up/passwd", "d", "missing"])  # fmt: skip
    assert summary(got, MAPPING) == "ok" and got.run_result.stdout == "41 /work\n"
    assert got.files == {"out.txt": b64("made"), "data/in.txt": b64("41")}  # (no link followed)


def test_a_compiled_program_reads_and_writes_files(url: str) -> None:
    code = ('#include <cstdio>\nint main(){int a; FILE* f = fopen("x.txt", "r");'
            'fscanf(f, "%d", &a); fprintf(fopen("y.txt", "w"), "%d\\n", 2 * a);}')  # fmt: skip
    got = run(url, code, "cpp", files={"x.txt": b64("21")}, fetch_files=["y.txt"])
    assert summary(got, MAPPING) == "ok" and got.files == {"y.txt": b64("42\n")}


def test_files_leave_nothing_for_the_next_run(url: str) -> None:
    run(url, "open('left.txt', 'w').write('x')", files={"a": b64("1")}, fetch_files=["left.txt"])
    got = run(url, "import os\nprint(sorted(os.listdir('.')))", fetch_files=["left.txt"])
    assert got.run_result.stdout == "[]\n" and got.files == {}


@pytest.mark.parametrize(("files", "what"), [
    ({"../x": "MQ=="}, "outside the working directory"),
    ({"/etc/x": "MQ=="}, "outside the working directory"),
    ({"x": "!!"}, "not valid base64"),
    ({"x": 1}, "base64 string"),
    ({"a": "MQ==", "a/b": "MQ=="}, "below another file"),
])  # fmt: skip
def test_files_outside_or_unreadable_are_refused(url: str, files: object, what: str) -> None:
    got = requests.post(f"{url}/run_code", json={"code": "print(1)", "files": files}, timeout=60)
    assert got.status_code == 400 and what in got.json()["error"]


@pytest.mark.parametrize("language", ["python2", "racket", "pytest"])
def test_a_language_this_machine_lacks_is_said_at_once(url: str, language: str) -> None:
    start_at = time.monotonic()
    got = run(url, "print 1", language)
    assert time.monotonic() - start_at < 2  # (not retried by the client for ~18 s)
    assert got.status == RunStatus.Failed and "not available on this grader" in got.message
    assert summary(got, MAPPING) == "failed"


@pytest.mark.parametrize(("body", "status", "what"), [
    (b'{"code": "print(1)", "language": "cobol"}', 400, "unknown language"),
    (b'{"code": "print(\\"\\ud800\\")", "language": "python"}', 400, "lone surrogate"),
    (b"[" * 100_000 + b"]" * 100_000, 400, "nested too deeply"),
])  # fmt: skip
def test_bad_bodies_are_4xx_never_500(url: str, body: bytes, status: int, what: str) -> None:
    got = requests.post(f"{url}/run_code", data=body, timeout=60,
                        headers={"Content-Type": "application/json"})  # fmt: skip
    assert got.status_code == status and what in got.json()["error"]


def test_a_body_announced_larger_than_allowed_is_refused_at_once(url: str) -> None:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(b"POST /run_code HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 50000000\r\n\r\n{\"code\":")  # fmt: skip
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413")


def test_overload_is_retried_by_the_client_and_loses_nothing() -> None:
    proc, address = start("-j", "1", "--queue", "1")  # (8 run at once: WALL_PER_WORKER)
    try:
        code = "import time\ntime.sleep(0.2)\nprint(input())"
        with ThreadPoolExecutor(16) as pool:
            got = list(pool.map(lambda i: run(address, code, stdin=f"{i}\n"), range(16)))
        assert [g.run_result.stdout for g in got] == [f"{i}\n" for i in range(16)]
        metrics = requests.get(f"{address}/metrics", timeout=10).text
        assert re.search(r"gradeserver_rejected_total [1-9]", metrics), metrics  # (retried)
    finally:
        stop(proc)


def verl_sandbox_helper() -> Any:
    """verl 0.9.1's own sandbox_fusion helper (it needs only requests)."""
    return load("verl/utils/reward_score/sandbox_fusion/utils.py")


def test_verls_helper_scores_through_gradeserver(url: str) -> None:
    helper: Any = verl_sandbox_helper()
    echo = "print(input())"
    in_outs = {"inputs": ["1\n", "2\n"], "outputs": ["1\n", "2\n"]}
    results, _ = helper.check_correctness(f"{url}/run_code", in_outs, echo, timeout=5)
    assert results == [True, True]
    results, meta = helper.check_correctness(f"{url}/run_code", in_outs,
                                             "import time\ntime.sleep(3)", timeout=1)  # fmt: skip
    assert results == [-3, -3], meta  # (a sleeper is a timeout, wall-clock, as SandboxFusion)


def test_verls_helper_loses_no_reward_to_many_concurrent_requests(url: str) -> None:
    """verl's helper sends each test as a request, up to max_concurrent at once, and scores
    -1 for any answer but 200 after retrying only 504: each must wait for its turn."""
    helper: Any = verl_sandbox_helper()
    code = "import time\ntime.sleep(0.05)\nprint(input())"
    in_outs = {"inputs": [f"{i}\n" for i in range(16)], "outputs": [f"{i}\n" for i in range(16)]}
    with ThreadPoolExecutor(8) as pool:  # (8 completions x 16 tests: 128 requests at once)
        got = list(pool.map(lambda _: helper.check_correctness(
            f"{url}/run_code", in_outs, code, timeout=10)[0], range(8)))  # fmt: skip
    assert got == [[True] * 16] * 8


def verl_sandbox_reward() -> Any:
    """verl 0.9.1's own sandbox_fusion reward (the package: its compute_score and the
    helper it imports)."""
    path = client_file("verl/utils/reward_score/sandbox_fusion/__init__.py")
    spec = importlib.util.spec_from_file_location(
        "client_sandbox_fusion", path, submodule_search_locations=[str(path.parent)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("options", [(), ("-j", "1")], ids=["defaults", "one worker"])
def test_verls_reward_scores_every_correct_completion_beside_endless_loops(
    options: tuple[str, ...],
) -> None:
    """Issue 57: with every third completion looping forever, correct ones waited behind
    the loops past verl's deadline (compile + run + 10 s) and lost their credit: 3 of 8 at
    gradeserver's defaults. Wall-clock runs now share the cores, many at once, each timed
    from its own start."""
    proc, address = start(*options)
    try:
        reward: Any = verl_sandbox_reward()
        burn = (
            "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\n"
        )
        right, loop = (
            f"```python\n{burn}print(input())\n```",
            "```python\nwhile True:\n    pass\n```",
        )
        completions = [loop if i % 3 == 2 else right for i in range(12)]
        cases = json.dumps({"inputs": ["1\n", "2\n"], "outputs": ["1\n", "2\n"]})
        semaphore = threading.Semaphore(64)  # (verl's sandbox_fusion.max_concurrent)
        with ThreadPoolExecutor(12) as pool:  # (verl grades a batch's completions at once)
            got = list(pool.map(lambda c: reward.compute_score(
                f"{address}/run_code", semaphore, 1024, c, cases, timeout=3)[0], completions))  # fmt: skip
        assert got == [0.0 if i % 3 == 2 else 1.0 for i in range(12)]
    finally:
        stop(proc)


def test_overload_is_a_504_with_retry_after_on_sandboxfusions_endpoints() -> None:
    proc, address = start("-j", "1", "--queue", "1")  # (8 run at once: WALL_PER_WORKER)
    try:
        body = {"code": "import time\ntime.sleep(0.5)", "language": "python"}
        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(lambda _: requests.post(f"{address}/run_code", json=body,
                                                            timeout=60), range(16)))  # fmt: skip
        busy = [a for a in answers if a.status_code != 200]
        assert busy and all(a.status_code == 504 and a.headers["Retry-After"] for a in busy)
        grade = requests.post(f"{address}/grade", json=[], timeout=10)
        assert grade.status_code == 400  # (ours: a bad body is still said so)
    finally:
        stop(proc)


def test_memory_limit_mb_is_the_runs(url: str) -> None:
    """(verl's helper sends memory_limit_MB; the SandboxFusion client's model has no such
    field.)"""
    helper = verl_sandbox_helper()
    code = "x = bytearray(300 << 20)\nprint(len(x) >> 20)"
    small, error = helper.call_sandbox_api(f"{url}/run_code", code, "", 10, 10, 128, "python")
    assert error is None and small["status"] == "Failed"
    assert small["run_result"]["return_code"] not in (None, 0)
    large, error = helper.call_sandbox_api(f"{url}/run_code", code, "", 10, 10, 1024, "python")
    assert error is None and large["run_result"]["stdout"] == "300\n"


def test_compile_timeout_is_the_compiles(url: str) -> None:
    code = "#include <bits/stdc++.h>\nint main(){std::cout << 1;}\n"
    slow = run(url, code, "cpp", compile_timeout=0.05)
    assert slow.compile_result.status == "TimeLimitExceeded"
    assert summary(slow, MAPPING) == "compile_timeout"
    assert summary(run(url, code, "cpp", compile_timeout=30), MAPPING) == "ok"


def test_a_client_that_goes_away_cancels_its_waiting_run() -> None:
    """Four requests whose clients hang up while they wait must not hold the one grader:
    the next request runs right after the running one."""
    proc, address = start("-j", "1")
    try:
        host, port = address.removeprefix("http://").split(":")
        body = b'{"code": "import time\\ntime.sleep(1.5)", "language": "python"}'
        request = (b"POST /run_code HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                   b"Content-Length: %d\r\n\r\n%s" % (len(body), body))  # fmt: skip
        with ThreadPoolExecutor(1) as pool:
            first = pool.submit(requests.post, f"{address}/run_code", data=body, timeout=60)
            time.sleep(0.3)  # (the first runs)
            for _ in range(4):
                with socket.create_connection((host, int(port)), timeout=10) as sock:
                    sock.sendall(request)
                    time.sleep(0.05)
            time.sleep(0.2)  # (each is gone before the first ends)
            start_at = time.monotonic()
            quick = requests.post(f"{address}/run_code", json={"code": "print(1)"}, timeout=60)
            assert quick.json()["run_result"]["stdout"] == "1\n"
            assert time.monotonic() - start_at < 3.0  # (not behind 4 x 1.5 s of abandoned runs)
            assert first.result().status_code == 200
    finally:
        stop(proc)


def test_a_long_run_timeout_and_a_submission_of_many_tests(url: str) -> None:
    """run_timeout=100 was refused (400); a /submit of 259 tests took 259 queue places
    and got 503 every time, which the client retried and then raised on."""
    assert summary(run(url, "print(1)", run_timeout=100), MAPPING) == "ok"
    cases = [{"input": {"stdin": f"{i}\n"}, "output": {"stdout": f"{i}\n"}} for i in range(300)]
    config = TestConfig(language="python", provided_data={"test": cases})
    echo = "```python\nprint(input())\n```"
    got = submit(SubmitRequest(dataset="x", id=1, completion=echo, config=config),
                 endpoint=url, max_attempts=1)  # fmt: skip
    assert got.accepted and len(got.tests) == 300
