"""Nothing crosses from one graded program to the next, and no completion sinks another:
attackers then a victim in the same worker, the kernel keyring as an oracle, a sleeper,
a starved program, a grader whose sandbox dies, and answers too large for int()."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file
from problemtools_py.dataset.schema import tests_json as encode_tests
from problemtools_py.dataset.writer import RowWriter
from problemtools_py.grading import Grader
from problemtools_py.grading.results import Settings
from problemtools_py.sandbox import cores

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="full isolation needs root")
HUGE = "9" * 5071
SPEC = {
    "echo": ("Print the input back.", [("5\n", "5\n"), ("7\n", "7\n")], 1.0),
    "yes": ("Answer YES.", [("1\n", "YES\n")], 1.0),
    "huge": ("Print a very large number.", [("x\n", HUGE + "\n")], 1.0),
    "slow": ("Print the input back; take your time.", [("5\n", "5\n")], 10.0),
}
SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"
IDS = {key: problem_id(statement) for key, (statement, _, _) in SPEC.items()}
# Uses /tmp, /dev/shm and its working directory, then answers.
VICTIM = """import os
with open('/tmp/scratch', 'wb') as f:
    f.write(b'v' * (16 << 20))
open('/dev/shm/sem.mine', 'w').write('x')
open('here', 'w').write('x')
assert sorted(os.listdir('.')) == ['here'] and os.listdir('/tmp') == ['scratch']
print(input())"""
ATTACKERS = {
    "fills its scratch space": """n = 0
for path in ('/tmp/f', '/dev/shm/f', 'f'):
    try:
        for i in range(10000):
            with open(f'{path}{i}', 'wb') as f:
                for _ in range(16):
                    f.write(b'x' * (1 << 20))
    except OSError:
        pass
print(0)""",
    "takes its working directory away": "import os\nos.chmod('.', 0o500)\nprint(0)",
    "leaves a tree deeper than rmtree's recursion": """import os
os.chdir('/tmp')
for _ in range(3000):
    os.mkdir('d')
    os.chdir('d')
print(0)""",
    "holds 1.9 GB of System V shared memory": """import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
shm = libc.shmget(0, 1900 << 20, 0o1600)
if shm >= 0:
    ctypes.memset(libc.shmat(shm, None, 0), 1, 1900 << 20)
print(shm, ctypes.get_errno())""",
    "stores state in the kernel keyring": """import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print(libc.syscall(248, b'user', b'ptpy-left', b'x' * 1000, 1000, -4), ctypes.get_errno())""",
}
ORACLE = """import ctypes
libc = ctypes.CDLL(None, use_errno=True)
key = libc.syscall(250, 10, -4, b'user', b'ptpy-oracle', 0)  # KEYCTL_SEARCH the user keyring
if key > 0:
    buf = ctypes.create_string_buffer(64)
    print(buf.raw[:libc.syscall(250, 11, key, buf, 64)].decode())  # KEYCTL_READ
else:  # remember the right answer for the next attempt
    libc.syscall(248, b'user', b'ptpy-oracle', b'YES', 3, -4)
    print('NO')"""


def py(code: str) -> str:
    return f"```python\n{code}\n```"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("between")
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        for key, (statement, tests, limit) in sorted(SPEC.items(), key=lambda kv: IDS[kv[0]]):
            writer.add(
                {
                    "problem_id": IDS[key],
                    "statement": statement,
                    "tests_json": encode_tests(tests),
                    "time_limit_s": limit,
                    "origin_json": origin_json({}),
                }
            )
    return root


@pytest.fixture
def grader(dataset: Path) -> Iterator[Grader]:
    with Grader(dataset, Settings(retries=0), jobs=1) as g:  # one worker: one jail for all
        yield g


def test_an_attacker_never_sinks_the_next_completion(grader: Grader) -> None:
    assert grader.grade(IDS["echo"], py(VICTIM)).reward == 1.0
    for what, attack in ATTACKERS.items():
        attacked = grader.grade(IDS["echo"], py(attack))
        assert attacked.reward == 0.0, what
        victim = grader.grade(IDS["echo"], py(VICTIM))
        assert (victim.status, victim.reward) == ("ok", 1.0), (what, victim)


def test_the_keyring_is_no_oracle(grader: Grader) -> None:
    rewards = [grader.grade(IDS["yes"], py(ORACLE)).reward for _ in range(3)]
    assert rewards == [0.0, 0.0, 0.0]


def test_answers_too_large_for_int_are_compared(grader: Grader) -> None:
    assert grader.grade(IDS["huge"], py("print('1.0')")).status == "wrong_answer"
    assert grader.grade(IDS["huge"], py(f"print('{HUGE}.000')")).reward == 1.0
    results = list(
        grader.grade_many([(IDS["huge"], py("print('1.0')")), (IDS["echo"], py("print(input())"))])
    )
    assert [r.status for r in results] == ["wrong_answer", "ok"]


def _descendants(pid: int) -> list[int]:
    out = subprocess.run(
        ["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True, check=True
    ).stdout
    children: dict[int, list[int]] = {}
    for line in out.splitlines():
        child, parent = map(int, line.split())
        children.setdefault(parent, []).append(child)
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def test_a_dying_sandbox_is_the_graders_error_and_the_batch_goes_on(grader: Grader) -> None:
    assert grader.grade(IDS["echo"], py("print(input())")).reward == 1.0
    (box,) = grader.pool._all  # the worker's sandbox, its jail open
    server = box.proc.pid

    def kill_it() -> None:
        time.sleep(1.0)
        for _ in range(20):  # the server, its jails, and whatever they start next
            for pid in _descendants(server):
                with __import__("contextlib").suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.05)

    killer = threading.Thread(target=kill_it)
    killer.start()
    sleeper = "import time\ntime.sleep(3)\nprint(input())"
    results = list(
        grader.grade_many([(IDS["slow"], py(sleeper)), (IDS["echo"], py("print(input())"))])
    )
    killer.join()
    assert (results[0].status, results[0].reward) == ("grader_error", None), results[0]
    assert (results[1].status, results[1].reward) == ("ok", 1.0), results[1]


def test_a_killed_jail_is_rebuilt_and_the_test_run_again(grader: Grader) -> None:
    assert grader.grade(IDS["echo"], py("print(input())")).reward == 1.0
    (box,) = grader.pool._all
    jail = [pid for pid in _descendants(box.proc.pid) if pid != box.proc.pid]

    def kill_jail() -> None:
        time.sleep(1.0)
        for pid in jail:
            with __import__("contextlib").suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_jail)
    killer.start()
    result = grader.grade(IDS["slow"], py("import time\ntime.sleep(2)\nprint(input())"))
    killer.join()
    assert (result.status, result.reward) == ("ok", 1.0), result


@contextlib.contextmanager
def _hogs(core: int) -> Iterator[None]:
    """Two processes spinning on ``core`` in a cgroup v1 CPU group of the largest weight:
    they take the core from any program, whose run group has its own weight (a nice value
    would not: each run's group competes as one, see sandbox.cgroups, and autogroups set
    niceness apart per session)."""
    group = Path(f"/sys/fs/cgroup/cpu/ptpy-test-hogs-{os.getpid()}")
    try:
        group.mkdir()
        (group / "cpu.shares").write_text("262144")
    except OSError as exc:
        pytest.skip(f"no cgroup v1 CPU group to make here: {exc}")
    hog = "import time\nend = time.time() + 60\nwhile time.time() < end:\n    pass"
    hogs: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(2):
            hogs.append(subprocess.Popen(["taskset", "-c", str(core), sys.executable, "-c", hog]))
            (group / "cgroup.procs").write_text(str(hogs[-1].pid))
        yield
    finally:
        for each in hogs:
            each.kill()
            each.wait()
        for _ in range(100):
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.05)


def test_a_starved_program_runs_again_then_is_the_machines_fault(dataset: Path) -> None:
    core = min(os.sched_getaffinity(0))
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {core})  # the grader, its sandbox and programs: one core
    try:
        with Grader(dataset, Settings(retries=1), jobs=1) as g:
            assert g.grade(IDS["echo"], py("print(input())")).reward == 1.0  # jail ready
            with _hogs(core):
                starved = g.grade(IDS["echo"], py("while True:\n    pass"))
    finally:
        os.sched_setaffinity(0, before)
    assert (starved.status, starved.reward, starved.retries) == ("harness_overload", None, 1), (
        starved
    )


@contextlib.contextmanager
def _one_core_left() -> Iterator[int]:
    """Every core of the budget but one held by threads of this process that sleep: the
    grader leases the one left (its programs run there), while its sandbox servers, which
    watch the programs' clocks, may still run on the others."""
    held, done = [], threading.Event()
    gave: queue.Queue[int | None] = queue.Queue()

    def hold() -> None:
        with cores.leased() as core:
            gave.put(core)
            done.wait()

    for _ in cores.node_cores()[1:]:
        held.append(threading.Thread(target=hold))
        held[-1].start()
    taken = {gave.get(timeout=10) for _ in held}
    try:
        yield next(c for c in cores.node_cores() if c not in taken)
    finally:
        done.set()
        for thread in held:
            thread.join()


@pytest.mark.skipif(len(cores.node_cores()) < 2, reason="needs two cores")
def test_a_starved_run_on_a_judged_problem_is_never_its_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 57: graded by the problem's own validator, a run the machine starved was a
    timeout (0.0, as if the program's). It runs again, and when starved each time the
    completion is the machine's fault: no reward."""
    from problemtools_py.grading.problems import _id_of

    monkeypatch.setenv(cores.ENV, str(tmp_path / "cores"))  # (a budget of its own)
    shutil.copytree(SAMPLES / "divisor", tmp_path / "pkgs" / "divisor")
    with Grader(tmp_path / "pkgs", Settings(retries=1), jobs=1) as g, _one_core_left() as core:
        pid = _id_of(tmp_path / "pkgs" / "divisor")
        right = (SAMPLES / "divisor" / "submissions" / "accepted" / "smallest.py").read_text()
        assert g.grade(pid, py(right)).reward == 1.0  # (its judge built, its jails warm)
        with _hogs(core):  # (the core known only now)
            starved = g.grade(pid, py("while True:\n    pass"))
    assert (starved.status, starved.reward, starved.retries) == ("harness_overload", None, 1), (
        starved
    )


HASH = "print(hash('a string'))"


def test_hash_seeds_fresh_per_run_with_fresh_python(dataset: Path) -> None:
    """As python3 gives: a new hash() seed per run (Settings.fresh_python); by default
    the runs of a session share their warm interpreter's (docs/judging.md). The seed
    shows in the comparator's message ("got '<hash>', expected '5'")."""
    with Grader(dataset, Settings(fresh_python=True), jobs=1) as fresh:
        seeds = {fresh.grade(IDS["echo"], py(HASH)).message for _ in range(3)}
    assert len(seeds) == 3, seeds
    with Grader(dataset, Settings(), jobs=1) as warm:
        seeds = {warm.grade(IDS["echo"], py(HASH)).message for _ in range(3)}
    assert len(seeds) == 1, seeds
