"""Issue 57, the attack: a completion widened its CPU pinning with ``sched_setaffinity``
(allowed) and ran 30-60 busy processes on its neighbour's core; the honest neighbour got
0.0 ``timeout`` on a judged problem and ``harness_overload`` on a comparator problem,
every round. A run's programs now stay on the core their grader leased (the run group's
cpuset, see sandbox.cores), whichever way the sandbox starts them, and the neighbour is
graded as if alone."""

from __future__ import annotations

import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from problemtools_py.grading.grader import Grader
from problemtools_py.grading.problems import _id_of
from problemtools_py.grading.testrun import RunLimits
from problemtools_py.sandbox import cores
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits

SAMPLES = Path(__file__).resolve().parents[2] / "sample_problems"
LIMITS = Limits(cpu_seconds=2.0, memory_bytes=256 << 20, output_bytes=1 << 20)
TWO_CORES = pytest.mark.skipif(len(cores.node_cores()) < 2, reason="needs two cores")

# Widens its affinity to the whole machine, in its main thread and in a child it forks
# after, and prints the cores each may then use.
WIDEN = """
import os
every = set(range(os.cpu_count() or 1))
try:
    os.sched_setaffinity(0, every)
except OSError:
    pass
r, w = os.pipe()
if os.fork() == 0:
    try:
        os.sched_setaffinity(0, every)
    except OSError:
        pass
    os.write(w, repr(sorted(os.sched_getaffinity(0))).encode())
    os._exit(0)
os.close(w)
child = os.read(r, 100).decode()
os.wait()
print(sorted(os.sched_getaffinity(0)), child)
"""

# The attacker: every core, and 30 processes spinning on them (its own CPU limit ends it).
ATTACK = """
import os, time
os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
for _ in range(30):
    if os.fork() == 0:
        while True:
            pass
time.sleep(30)
"""


def _seen(stdout: bytes) -> list[list[int]]:
    main, child = stdout.decode().strip().split("] ", 1)
    return [eval(main + "]"), eval(child)]  # (our own program's repr of lists of ints)


@TWO_CORES
@pytest.mark.parametrize("mode", ["exec", "session", "in-process", "lean"])
def test_a_program_cannot_leave_the_core_its_grader_leased(
    full_box: Sandbox, tmp_path: Path, mode: str
) -> None:
    tmp_path.chmod(0o755)
    (tmp_path / "widen.py").write_text(WIDEN)
    binds = [Bind(str(tmp_path), "/prog")]
    argv = ["python3", "-S", "/prog/widen.py"]
    for _ in range(2):  # (each core in turn, whichever the lease hands out)
        with cores.leased() as core:
            assert core is not None
            if mode == "exec":
                result = full_box.run(argv, limits=LIMITS, binds=binds)
            else:
                inprocess = mode == "in-process"
                with full_box.session(limits=LIMITS, binds=binds, lean=mode == "lean",
                                 inprocess=inprocess):  # fmt: skip
                    if inprocess:
                        result = full_box.run(argv, limits=LIMITS, inprocess=argv[2])
                    elif mode == "lean":
                        assert full_box.lean_open
                        fd = os.memfd_create("stdin")
                        try:
                            result = full_box.run_lean(argv, limits=LIMITS, stdin=fd)
                        finally:
                            os.close(fd)
                    else:
                        result = full_box.run(argv, limits=LIMITS)
        assert result.ok, result
        assert _seen(result.stdout) == [[core], [core]]


@TWO_CORES
def test_without_a_lease_a_program_has_every_core_again(full_box: Sandbox, tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    (tmp_path / "widen.py").write_text(WIDEN)
    binds = [Bind(str(tmp_path), "/prog")]
    with full_box.session(limits=LIMITS, binds=binds, lean=True):
        fd = os.memfd_create("stdin")
        try:
            with cores.leased() as core:
                full_box.run_lean(["python3", "-S", "/prog/widen.py"], limits=LIMITS, stdin=fd)
            result = full_box.run_lean(["python3", "-S", "/prog/widen.py"], limits=LIMITS, stdin=fd)
        finally:
            os.close(fd)
    assert core is not None and result.ok, result
    every = sorted(os.sched_getaffinity(os.getpid()))
    assert _seen(result.stdout) == [every, every]


@TWO_CORES
@pytest.mark.parametrize("wall_clock", [False, True])
def test_a_completion_graded_is_confined_to_one_core(wall_clock: bool) -> None:
    with Grader(None, jobs=2) as grader:
        run = grader.execute(WIDEN, "python3", "", RunLimits(2.0, 1 << 20, wall_clock))
    assert not hasattr(run, "status"), run
    main, child = _seen(run.stdout)  # type: ignore[union-attr]
    assert len(main) == 1 and child == main


def _honest(package: Path, burn: float) -> str:
    """The package's accepted Python submission, after ``burn`` CPU seconds of work."""
    found = next((package / "submissions" / "accepted").glob("*.py"))
    spin = f"import time\n_t = time.process_time()\nwhile time.process_time() - _t < {burn}:\n    pass\n"
    return f"```python\n{spin}{found.read_text(encoding='utf-8')}\n```"


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A comparator problem and one judged by its own output validator."""
    root = tmp_path_factory.mktemp("neighbours")
    for name in ("hello", "divisor", "guess"):
        shutil.copytree(SAMPLES / name, root / name)
    return root


@TWO_CORES
@pytest.mark.parametrize("problem", ["hello", "divisor"])
def test_an_honest_completion_beside_attackers_gets_its_reward(
    packages: Path, problem: str
) -> None:
    honest = _honest(packages / problem, 0.2)
    attack = f"```python\n{ATTACK}\n```"
    pid = _id_of(packages / problem)
    items = [(pid, attack if i % 2 else honest) for i in range(8)]
    with Grader(packages, jobs=2) as grader:
        results = list(grader.grade_many(items))
    for index, result in enumerate(results):
        if index % 2 == 0:
            assert (result.reward, result.status.value) == (1.0, "ok"), result
        else:
            assert result.reward == 0.0, result  # (its own limit ends it: a verdict)


# Widens its affinity, then works a while: long enough to be seen from the host.
WIDE_THEN_WORK = """import os, time
os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
_t = time.process_time()
while time.process_time() - _t < 1.0:
    pass
"""


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _sandboxed_cores() -> list[str]:
    """The cores each process this test's graders run as a sandbox user may use now, as
    /proc says (another grader's on the machine, a test suite's beside, are left out)."""
    from problemtools_py.sandbox import identity

    found = []
    for pid in identity.processes():
        above = pid
        while above > 1 and above != os.getpid():
            above = _parent(above)
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue  # (it ended meanwhile)
        if above == os.getpid():
            found.append(status.split("Cpus_allowed_list:")[1].split()[0])
    return found


@TWO_CORES
@pytest.mark.parametrize("problem", ["hello", "divisor", "guess"])
def test_every_program_of_a_grading_stays_on_one_core(packages: Path, problem: str) -> None:
    """Seen from the host while they run: the program, and on an interactive problem its
    validator (run at once, from threads of their own), each on a single core."""
    honest = _honest(packages / problem, 0.0)
    completion = honest.replace("```python\n", "```python\n" + WIDE_THEN_WORK, 1)
    seen: list[str] = []
    with Grader(packages, jobs=2) as grader, ThreadPoolExecutor(1) as pool:
        assert grader.grade(_id_of(packages / problem), honest).reward == 1.0  # (warm: its
        # sandboxes' probes, our own programs, are done)
        future = pool.submit(grader.grade, _id_of(packages / problem), completion)
        while not future.done():
            seen += _sandboxed_cores()
            time.sleep(0.05)
        result = future.result()
    assert (result.reward, result.status.value) == (1.0, "ok"), result
    assert seen and all(cores.isdigit() for cores in seen), seen
