"""The limit of processes and threads (issue 60): at least what the judges give by default
(DOMjudge's runguard: 64), room for the 150 threads a contestant's program may start, and
a program that reaches it is told so: a run-time error naming the limit, never a TLE.

The program that reaches it here is the usual shape: threads that wait for each other at
a barrier. Under python3 with the same limit the thread that cannot start raises, and the
others wait for ever: the wall clock stops the run, and the cause was the limit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.processes import processes_of

from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import LEAN_LOOP, Bind
from problemtools_py.sandbox.results import Limits, Outcome, RunResult

ROOT = os.geteuid() == 0
pytestmark = pytest.mark.skipif(not ROOT, reason="the task limit is a cgroup's: full isolation")

THREADS_PY = """import sys, threading
count = int(sys.argv[1])
barrier = threading.Barrier(count)
done = [0] * count
def work(i):
    barrier.wait()
    done[i] = 1
threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(sum(done))
"""
THREADS_C = r"""#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static pthread_barrier_t barrier;
static void *work(void *arg) { pthread_barrier_wait(&barrier); return arg; }
int main(int argc, char **argv) {
    int count = atoi(argv[1]);
    pthread_t *threads = malloc(sizeof *threads * count);
    pthread_barrier_init(&barrier, NULL, count);
    for (int i = 0; i < count; i++)
        if (pthread_create(&threads[i], NULL, work, NULL)) { perror("pthread_create"); abort(); }
    for (int i = 0; i < count; i++) pthread_join(threads[i], NULL);
    printf("%d\n", count);
    return 0;
}
"""
LIMITS = Limits(cpu_seconds=1.0, memory_bytes=1 << 30, output_bytes=1 << 20)
SMALL = Limits(cpu_seconds=1.0, memory_bytes=1 << 30, output_bytes=1 << 20, processes=32)


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("threads")
    directory.chmod(0o755)
    (directory / "threads.py").write_text(THREADS_PY)
    (directory / "threads.c").write_text(THREADS_C)
    subprocess.run(["gcc", "-O2", "-pthread", "-o", str(directory / "threads"),
                    str(directory / "threads.c")], check=True)  # fmt: skip
    return directory


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        yield sandbox


def _runs(box: Sandbox, programs: Path, mode: str, count: int, limits: Limits) -> RunResult:
    """One run of ``count`` threads: the C program, or the Python one started as python3,
    forked from the server, or forked from a lean session's init."""
    lean = mode.startswith("lean")
    if lean and not box.python_matches():
        pytest.skip("a lean session needs the same Python inside")
    argv = ["/prog/threads", str(count)] if mode == "c" else ["python3", "/prog/threads.py",
                                                               str(count)]  # fmt: skip
    inprocess = "/prog/threads.py" if mode == "in-process" or lean else None
    with box.session(limits=limits, binds=[Bind(str(programs), "/prog")],
                     inprocess=inprocess is not None, lean=lean):  # fmt: skip
        if lean:
            stdin = os.memfd_create("stdin")  # (a lean run's stdin is a memory file)
            try:
                result = box.run_lean(argv, limits=limits, stdin=stdin,
                                      inprocess="/prog/threads.py")  # fmt: skip
            finally:
                os.close(stdin)
        else:
            result = box.run(argv, limits=limits, inprocess=inprocess)
    assert processes_of(box.user) == [], "a thread of the run outlived it"
    return result


MODES = ["c", "python3", "in-process", "lean", "lean-python-loop"]


@pytest.fixture(autouse=True)
def _loop(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lean init's run loop in Python for that mode (the C loop otherwise)."""
    mode = getattr(request.node, "callspec", None) and request.node.callspec.params.get("mode")
    if mode == "lean-python-loop":
        monkeypatch.setenv(LEAN_LOOP, "python")


@pytest.mark.parametrize("mode", MODES)
def test_150_threads_run_at_the_default_limit(box: Sandbox, programs: Path, mode: str) -> None:
    result = _runs(box, programs, mode, 150, LIMITS)
    assert result.ok and result.stdout == b"150\n", result.stderr[-2000:]


@pytest.mark.parametrize("mode", MODES)
def test_reaching_the_limit_is_a_run_time_error_that_names_it(
    box: Sandbox, programs: Path, mode: str
) -> None:
    result = _runs(box, programs, mode, 40, SMALL)
    assert result.outcome is Outcome.RTE, (result.outcome, result.describe())
    assert result.describe().startswith("reached its limit of 32 processes and threads")


def test_a_program_that_handles_the_limit_is_judged_on_its_output(
    box: Sandbox, programs: Path
) -> None:
    """A program that sees a failed fork and goes on to exit 0 is not an error."""
    code = ("import os\nmade = 0\nfor _ in range(60):\n    try:\n        pid = os.fork()\n"
            "    except OSError:\n        break\n    if pid == 0:\n        import time\n"
            "        time.sleep(5)\n        os._exit(0)\n    made += 1\nprint(made)\n")  # fmt: skip
    with box.session(limits=SMALL, binds=[Bind(str(programs), "/prog")]):
        result = box.run(["python3", "-c", code], limits=SMALL)
    assert result.ok and 0 < int(result.stdout) < 32


def test_the_grader_names_the_limit_and_gives_no_timeout(tmp_path: Path) -> None:
    """Through compute_score: 150 threads score, 300 (over the default) are a run-time
    error whose message names the limit."""
    scores = {}
    for count in (150, 300):
        code = "```python\n" + THREADS_PY.replace("int(sys.argv[1])", str(count)) + "```"
        truth = json.dumps({"inputs": [""], "outputs": [f"{count}\n"]})
        call = ("import json; from problemtools_py import rewards; r = rewards.compute_score("
                f"'codecontests', {code!r}, {truth!r}, None, details=True); print(json.dumps(r))")  # fmt: skip
        got = subprocess.run([sys.executable, "-c", call], capture_output=True, text=True,
                             timeout=300, check=True)  # fmt: skip
        scores[count] = json.loads(got.stdout.splitlines()[-1])
    assert (scores[150]["score"], scores[150]["status"]) == (1.0, "ok")
    assert scores[300]["status"] == "runtime_error", scores[300]
    assert "limit of 256 processes and threads" in scores[300]["message"], scores[300]
