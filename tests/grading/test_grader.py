"""gradecode and the Grader: the dataset's reward and statuses on real problems, code
extraction, hostile completions, input order and echoed fields, reproducibility."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.processes import stray_processes

from problemtools_py.cli.gradecode import main
from problemtools_py.dataset.ids import problem_id
from problemtools_py.dataset.schema import PROBLEMS, origin_json, split_file
from problemtools_py.dataset.schema import tests_json as encode_tests
from problemtools_py.dataset.writer import RowWriter
from problemtools_py.grading import Grader, extract_code
from problemtools_py.grading.results import GradeResult, Settings

Capture = pytest.CaptureFixture[str]
# Small problems with the answers the comparator cases need.
PROBLEMS_SPEC = {
    "echo": ("Print the input back.", [("5\n", "5\n"), ("7\n", "7\n")]),
    "yes": ("Answer YES.", [("1\n", "YES\n")]),
    "two": ("Print two.", [("x\n", "2\n")]),
    "half": ("Print 7.5.", [("x\n", "7.5\n")]),
    "pair": ("Print 1 and 2.", [("x\n", "1 2\n")]),
    "roomy": ("Print one; you have 10 seconds.", [("x\n", "1\n")]),
}
TIME_LIMITS = {"roomy": 10.0}
IDS = {key: problem_id(statement) for key, (statement, _) in PROBLEMS_SPEC.items()}


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("grading")
    rows = sorted((IDS[k], s, t, TIME_LIMITS.get(k, 1.0)) for k, (s, t) in PROBLEMS_SPEC.items())
    with RowWriter(root / split_file("eval"), PROBLEMS) as writer:
        for pid, statement, tests, limit in rows:
            writer.add({"problem_id": pid, "statement": statement, "tests_json": encode_tests(tests),
                        "time_limit_s": limit, "origin_json": origin_json({})})
    return root


@pytest.fixture(scope="module")
def grader(dataset: Path) -> Iterator[Grader]:
    with Grader(dataset, Settings(retries=0), jobs=2) as g:
        yield g


def py(code: str) -> str:
    return f"Here is my solution:\n```python\n{code}\n```\n"


ECHO = "print(input())"
STATUS_CASES = [
    ("ok", "echo", ECHO), ("wrong_answer", "echo", "print(6)"),
    ("timeout", "echo", "while True:\n    pass"),
    ("timeout", "echo", "import os\npid = os.fork()\nif pid == 0:\n    while True:\n        pass\nos.waitpid(pid, 0)"),
    ("memory", "roomy", "x = [0] * (10 ** 9)\nprint(len(x))"),
    ("output_limit", "echo", "while True:\n    print('y' * 10000)"),
    ("runtime_error", "echo", "raise ValueError('no')"),
    ("runtime_error", "echo", "import sys\nsys.exit(3)"),
    ("syntax_error", "echo", "def f(:\n    pass"), ("no_code", "echo", None),
    # sleeping is no way out: the wall clock stops it, and it did not wait for a CPU
    ("timeout", "echo", "import time\ntime.sleep(60)"),
    ("timeout", "echo", "import signal\nsignal.pause()"),
]


@pytest.mark.parametrize(("status", "problem", "code"), STATUS_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(STATUS_CASES)])
def test_every_status(grader: Grader, status: str, problem: str, code: str | None) -> None:
    completion = py(code) if code is not None else "I could not solve it."
    result = grader.grade(IDS[problem], completion)
    assert (result.status, result.reward) == (status, 1.0 if status == "ok" else 0.0), result
    assert result.retries == 0
    if status == "ok":
        assert result.cpu_seconds > 0 and result.wall_seconds > 0, result
    if status not in ("ok", "syntax_error", "no_code"):
        assert result.test == 0
    if code == "raise ValueError('no')":
        assert "ValueError: no" in result.message


def test_grading_goes_straight_to_the_jail(dataset: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With full isolation the grader talks to the session's jail directly
    (Sandbox.run_lean), not through the sandbox server, for every test."""
    from problemtools_py.sandbox.client import Sandbox

    calls = []
    real = Sandbox.run_lean
    monkeypatch.setattr(Sandbox, "run_lean", lambda *a, **k: calls.append(1) or real(*a, **k))
    with Grader(dataset, jobs=1) as g:
        assert g.grade(IDS["echo"], py(ECHO)).reward == 1.0
    if os.geteuid() == 0:
        assert len(calls) == len(PROBLEMS_SPEC["echo"][1])


def test_tests_run_in_order_and_stop_at_the_first_failure(grader: Grader) -> None:
    result = grader.grade(IDS["echo"], py("v = input()\nprint(v if v == '5' else 0)"))
    assert (result.status, result.test, result.tests_run) == ("wrong_answer", 1, 2)


@pytest.mark.parametrize(("problem", "output", "reward"), [
    ("yes", "YES", 1.0), ("yes", "yes", 1.0), ("yes", "Yes!", 0.0),
    ("two", "2.000", 1.0), ("two", "2.0001", 0.0),
    ("half", "7.5000001", 1.0), ("half", "7.6", 0.0),
    ("pair", "1 2 3", 0.0), ("pair", "1   2   \\n\\n", 1.0),
])
def test_comparator_through_grading(grader: Grader, problem: str, output: str, reward: float) -> None:
    result = grader.grade(IDS[problem], py(f"print('{output}', end='\\n')"))
    assert result.reward == reward, result


@pytest.mark.parametrize(("completion", "code"), [
    ("```python\nA\n```\n```py\nB\n```", "B\n"),
    ("```python\nA\n```\nand in C++:\n```cpp\nint main(){}\n```", "A\n"),
    ("```PYTHON3\nA\n```", "A\n"),
    ("```\nA\n```", "A\n"),
    ("~~~python\nA\n~~~", "A\n"),
    ("```python\nA\n```\n```python\nB", None),  # the last block is cut off
    ("```python\n\n```", None),
    ("print(1)", None),
    ("```cpp\nint main(){}\n```", None),
])
def test_code_extraction(completion: str, code: str | None) -> None:
    assert extract_code(completion) == code


def test_raw_completions() -> None:
    assert extract_code("print(1)\n", raw=True) == "print(1)\n"
    assert extract_code("  \n", raw=True) is None


def nobody() -> list[str]:
    """Processes of sandboxes that have ended (machine-wide, but never one of a sandbox
    still running: another suite's, a gradeserver's)."""
    return stray_processes()


HOSTILE = [
    "import os\nprint(os.listdir('/'), open('/etc/shadow').read())",
    "import os\nfor _ in range(10000):\n    os.fork()\nprint(5)",
    "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(30)\nprint('daemon')",
    "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nos.kill(1, signal.SIGKILL)\nprint(6)",
    "import socket\nsocket.create_connection(('127.0.0.1', 22), timeout=1)\nprint(input())",
    "print(open('/proc/1/environ').read())",
    "import sys\nwhile True:\n    sys.stderr.write('x' * 65536)",
    "open('/tmp/fill', 'w').write('x' * (1 << 30))\nprint(input())",
    # the right answer, then stdout closed and the CPU burnt: the run has not ended
    "import os\nos.write(1, b'5\\n')\nos.close(1)\nwhile True:\n    pass",
]
# Looks for the expected answer ("YES") in the memory of every process it can see.
MEMORY_SCAN = """import os
found = False
for pid in os.listdir('/proc'):
    if not pid.isdigit() or int(pid) == os.getpid():
        continue
    try:
        maps = open(f'/proc/{pid}/maps').read().splitlines()
        with open(f'/proc/{pid}/mem', 'rb') as mem:
            for line in maps:
                start, end = (int(x, 16) for x in line.split()[0].split('-'))
                try:
                    mem.seek(start)
                    found = found or (b'Y' + b'ES') in mem.read(min(end - start, 1 << 24))
                except (OSError, ValueError, OverflowError):
                    pass
    except OSError:
        pass
print('Y' + 'ES' if found else 'NO')"""


def test_no_process_a_program_can_see_holds_the_answers(grader: Grader) -> None:
    result = grader.grade(IDS["yes"], py(MEMORY_SCAN))
    assert (result.status, result.reward) == ("wrong_answer", 0.0), result


@pytest.mark.parametrize("code", HOSTILE)
def test_hostile_completions_get_nothing_and_leave_nothing(grader: Grader, code: str,
                                                           tmp_path: Path) -> None:
    assert grader.grade(IDS["echo"], py(ECHO)).reward == 1.0  # its sessions exist already
    before = set(Path("/tmp").iterdir())
    result = grader.grade(IDS["echo"], py(code))
    assert result.reward == 0.0
    assert nobody() == []
    ours = f"ptpy-grade-{os.getpid()}-"  # (a grader elsewhere on the machine makes its own)
    leftovers = {p for p in set(Path("/tmp").iterdir()) - before if p.name.startswith(ours)}
    assert leftovers == set()
    assert grader.grade(IDS["echo"], py(ECHO)).reward == 1.0  # the grader is healthy


@pytest.mark.parametrize("extra", [[], ["--no-pin"]], ids=["pinned", "no-pin"])
def test_gradecode_keeps_order_and_echoes_fields(dataset: Path, tmp_path: Path,
                                                 capsys: Capture, extra: list[str]) -> None:
    lines = [{"problem_id": IDS["echo"], "completion": py(ECHO), "sample": i, "note": "n"}
             for i in range(6)]
    lines[2]["completion"] = py("print(0)")
    lines[4]["completion"] = "nothing"
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main([str(dataset), str(source), "-j", "2", "-q", *extra]) == 0
    captured = capsys.readouterr()
    out = [json.loads(line) for line in captured.out.splitlines()]
    assert [o["sample"] for o in out] == list(range(6))
    assert [o["status"] for o in out] == ["ok", "ok", "wrong_answer", "ok", "no_code", "ok"]
    assert all(o["note"] == "n" and o["completion"] == line["completion"]
               for o, line in zip(out, lines, strict=True))
    assert "pass rate 0.667" in captured.err


def test_gradecode_bad_input_names_the_line(dataset: Path, tmp_path: Path, capsys: Capture) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text(json.dumps({"problem_id": IDS["echo"], "completion": "x"}) + "\n{oops\n")
    assert main([str(dataset), str(source), "-q", "--on-bad-row", "raise"]) == 2
    assert f"{source}:2: not a JSON object" in capsys.readouterr().err


def test_gradecode_flags_every_bad_line_and_grades_the_rest(
    dataset: Path, tmp_path: Path, capsys: Capture
) -> None:
    """By default a line that cannot be graded is written flagged, in its place, and the
    others graded (a run of hours never lost to one line); exit 1 says some were."""
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"\n".join([
        json.dumps({"problem_id": IDS["echo"], "completion": py(ECHO), "n": 0}).encode(),
        b"{oops",
        json.dumps({"problem_id": "0123456789abcdef", "completion": "x", "n": 2}).encode(),
        b"\xff\xfe",
        json.dumps({"problem_id": IDS["echo"], "completion": 7, "n": 4}).encode(),
        json.dumps({"problem_id": IDS["echo"], "completion": "x", "memory_mb": -1, "n": 5}).encode(),
        json.dumps({"problem_id": IDS["echo"], "completion": py(ECHO), "n": 6}).encode(),
    ]) + b"\n")  # fmt: skip
    assert main([str(dataset), str(source), "-q"]) == 1
    captured = capsys.readouterr()
    out = [json.loads(line) for line in captured.out.splitlines()]
    assert [(r.get("n"), r["status"], r["reward"]) for r in out] == [
        (0, "ok", 1.0), (None, "bad_row", None), (2, "bad_row", None), (None, "bad_row", None),
        (4, "bad_row", None), (5, "bad_row", None), (6, "ok", 1.0),
    ]  # fmt: skip
    assert [r.get("line") for r in out if r["status"] == "bad_row"] == [2, 3, 4, 5, 6]
    assert "no problem with id '0123456789abcdef'" in out[2]["message"]
    assert "not UTF-8" in out[3]["message"] and "not a JSON object" in out[1]["message"]
    assert "memory_mb must be a positive number" in out[5]["message"]
    assert "completion" not in out[2]  # (echoed as a graded line is, the program left out)
    assert "5 lines not graded (status bad_row" in captured.err


def test_gradecode_unknown_problem_names_the_line(dataset: Path, tmp_path: Path,
                                                  capsys: Capture) -> None:
    source = tmp_path / "in.jsonl"
    lines = [{"problem_id": IDS["echo"], "completion": py(ECHO)},
             {"problem_id": "0123456789abcdef", "completion": py(ECHO)}]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main([str(dataset), str(source), "-q", "--on-bad-row", "raise"]) == 2
    captured = capsys.readouterr()
    assert f"{source}:2: no problem with id '0123456789abcdef'" in captured.err
    assert captured.out == ""  # nothing graded before the input was known to be good


def test_gradecode_output_file_appears_whole_or_not_at_all(dataset: Path, tmp_path: Path,
                                                           capsys: Capture) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"problem_id": IDS["echo"], "completion": py(ECHO)}) + "\n")
    out = tmp_path / "out" / "results.jsonl"
    out.parent.mkdir()
    assert main([str(tmp_path / "no-such-dataset"), str(source), "-o", str(out), "-q"]) != 0
    assert list(out.parent.iterdir()) == []
    assert main([str(dataset), str(source), "-o", str(out), "-q"]) == 0
    assert [p.name for p in out.parent.iterdir()] == ["results.jsonl"]
    assert json.loads(out.read_text())["status"] == "ok"
    capsys.readouterr()


def test_grading_is_reproducible(grader: Grader) -> None:
    batch = [(IDS["echo"], py(code)) for code in (ECHO, "print(6)", "while True:\n    pass",
                                                    "raise ValueError()")] * 3
    first = [r.reward for r in grader.grade_many(batch)]
    second = [r.reward for r in grader.grade_many(batch)]
    assert first == second == [1.0, 0.0, 0.0, 0.0] * 3


@pytest.mark.slow
def test_grading_is_reproducible_on_a_loaded_machine(dataset: Path) -> None:
    """CPU time, not wall time, decides: with every core busy with other work, a program
    that needs ~0.3 s of its 1 s still passes, and rewards repeat exactly."""
    busy = "s = sum(k * k for k in range(2_000_000))\nprint(input())"
    batch = [(IDS["echo"], py(code)) for code in (ECHO, busy, "print(6)", "while True:\n    pass")]
    batch *= 2
    expected = [1.0, 1.0, 0.0, 0.0] * 2
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(os.cpu_count() or 2)]
    try:
        with Grader(dataset, jobs=2) as grader:
            first = [r.reward for r in grader.grade_many(batch)]
            second = [r.reward for r in grader.grade_many(batch)]
    finally:
        for proc in load:
            proc.kill()
            proc.wait()
    assert first == second == expected


@pytest.mark.slow
def _cgroups() -> set[Path]:
    """The sandbox's per-session cgroups whose server is gone (``ptpy-<pid>-<n>``): left
    behind. (Those of live servers, another run's on a shared machine, are not ours.)"""
    root = Path("/sys/fs/cgroup")
    found = {p for pattern in ("*/ptpy-*", "*/*/*/ptpy-*") for p in root.glob(pattern)}
    return {p for p in found if not Path(f"/proc/{p.name.split('-')[1]}").exists()}


def test_ray_local_gives_the_same_rewards(dataset: Path, tmp_path: Path, capsys: Capture) -> None:
    codes = [ECHO, "print(6)", "while True:\n    pass", "raise ValueError()", "print('YES')"]
    lines = [{"problem_id": IDS[p], "completion": py(c), "n": n}
             for n, (p, c) in enumerate((p, c) for p in ("echo", "yes") for c in codes)]
    # more batches (16 per problem) than one actor holds in flight, interleaved problems
    fast = [(p, c) for c in (ECHO, "print(6)", "print('YES')") for p in ("echo", "yes")] * 6
    lines += [{"problem_id": IDS[p], "completion": py(c), "n": len(lines) + n}
              for n, (p, c) in enumerate(fast)]
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main([str(dataset), str(source), "-q", "-o", str(tmp_path / "local.jsonl")]) == 0
    groups = _cgroups()
    assert main([str(dataset), str(source), "-q", "-o", str(tmp_path / "ray.jsonl"),
                 "--ray", "local", "-j", "1"]) == 0
    assert _cgroups() - groups == set()  # the actors closed their sandboxes
    local = [json.loads(x) for x in (tmp_path / "local.jsonl").read_text().splitlines()]
    remote = [json.loads(x) for x in (tmp_path / "ray.jsonl").read_text().splitlines()]
    assert [r["n"] for r in remote] == list(range(len(lines)))
    assert [(r["reward"], r["status"]) for r in remote] == [(r["reward"], r["status"]) for r in local]
    assert [r["reward"] for r in local][:10] == [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    assert sum(r["reward"] for r in local[10:]) == 12  # ECHO on echo, print('YES') on yes


def test_each_completion_runs_its_own_code(grader: Grader) -> None:
    """The jail compiles a program once for all its tests: two completions of the same size
    graded back to back must still each run as written."""
    for _ in range(5):  # the echo tests are 5 then 7: print(6) fails the first, print(5) the second
        six, five = grader.grade(IDS["echo"], py("print(6)")), grader.grade(IDS["echo"], py("print(5)"))
        assert (six.status, six.test, five.status, five.test) == ("wrong_answer", 0, "wrong_answer", 1)
        assert grader.grade(IDS["echo"], py("print(input())")).reward == 1.0


CORES = os.sched_getaffinity(0)
ON_ITS_CORE = "import os\ncores = os.sched_getaffinity(0)\nprint(input() if len(cores) == 1 else cores)"


@pytest.mark.skipif(len(CORES) < 2 or os.geteuid() != 0,
                    reason="confinement needs two cores and cgroups (root)")
@pytest.mark.parametrize(("pin", "jobs"), [(True, len(CORES)), (False, len(CORES)), (True, 1)])
def test_every_program_runs_on_the_one_core_its_grader_leased(
    dataset: Path, pin: bool, jobs: int
) -> None:
    """Every program graded runs on one core, the one its grader leased from the node's
    budget (sandbox.cores), whatever the workers and pinning. A worker's thread is pinned
    there only while it grades (reading the dataset it is not: threads a Parquet reader
    starts must not inherit a pin), and the caller's thread is left as it was."""
    with Grader(dataset, Settings(retries=0, pin=pin), jobs=jobs) as grader:
        seen: list[set[int]] = []  # where a worker thread is when it reads the dataset
        fetch = grader.problems.fetch
        grader.problems.fetch = lambda pid: seen.append(os.sched_getaffinity(0)) or fetch(pid)  # type: ignore[method-assign]
        results = list(grader.grade_many([(IDS["echo"], py(ON_ITS_CORE)), (IDS["yes"], py("print('YES')"))] * 3))
        assert [r.status for r in results] == ["ok"] * 6, results
        assert seen and all(cores == CORES for cores in seen)
        assert grader.grade(IDS["echo"], py(ON_ITS_CORE)).status == "ok"
        assert os.sched_getaffinity(0) == CORES


def test_stopping_grade_many_early_stops_the_grading(dataset: Path) -> None:
    """A caller that stops reading (Ctrl-C, an exception, closing the iterator) does not
    wait for the whole window: completions not started are dropped, and running ones
    stop before their next test."""
    spin = py("x = input()\nwhile True:\n    pass")  # a timeout on the first test
    with Grader(dataset, Settings(retries=0), jobs=2) as grader:
        started: list[str] = []
        grade = grader.grade
        grader.grade = lambda pid, c, **kw: started.append(pid) or grade(pid, c, **kw)  # type: ignore[method-assign]
        results = grader.grade_many([(IDS["echo"], spin)] * 40)
        assert next(results).status == "timeout"
        results.close()
        assert len(started) <= 2 + 2, started  # the one read, and at most one per worker
        assert grader.grade(IDS["echo"], py(ECHO)).reward == 1.0  # still usable


def test_a_session_that_cannot_open_leaves_no_program_directory(
    dataset: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its server lost before the jail opened: a grader_error, and its directory gone."""
    from problemtools_py.sandbox.client import Sandbox
    from problemtools_py.sandbox.results import SandboxError

    def lost(*_args: object, **_kwargs: object) -> object:
        raise SandboxError("lost the sandbox server")

    before = {p for p in Path("/tmp").iterdir() if p.name.startswith(f"ptpy-grade-{os.getpid()}-")}
    with Grader(dataset, Settings(retries=0), jobs=1) as grader:
        monkeypatch.setattr(Sandbox, "session", lost)
        result = grader.grade(IDS["echo"], py(ECHO))
    assert result.status == "grader_error", result
    after = {p for p in Path("/tmp").iterdir() if p.name.startswith(f"ptpy-grade-{os.getpid()}-")}
    assert after - before == set()


# (the roomy problem: on a fresh virtual machine the first touch of memory the guest never
# used costs up to 3 s of system CPU per GiB, and this test is about memory)
HOG_600MB = "x = bytearray(600 << 20)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\nprint(1)"


def test_gradecode_takes_a_lines_memory_limit(dataset: Path, tmp_path: Path, capsys: Capture) -> None:
    """Issue 58: a line's memory limit (ours, open-r1's MB, CodeContests' bytes) is its
    program's; --memory-mb for lines that give none."""
    source = tmp_path / "in.jsonl"
    limits = [{"memory_mb": 256}, {"memory_limit": 256}, {"memory_limit_bytes": 256 << 20},
              {"memory_limit": 1024}, {}]  # fmt: skip
    source.write_text("".join(json.dumps({"problem_id": IDS["roomy"], "completion": py(HOG_600MB),
                                          **limit}) + "\n" for limit in limits))  # fmt: skip
    assert main([str(dataset), str(source), "-q", "--memory-mb", "300"]) == 0
    got = [json.loads(line)["status"] for line in capsys.readouterr().out.splitlines()]
    assert got == ["memory", "memory", "memory", "ok", "memory"]


def test_a_completions_compile_warning_is_its_own_stderr_not_the_graders(
    dataset: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Issue 60: the jail's init compiled a completion once for all its tests and its
    SyntaxWarning went to the grader's stderr, naming no completion. python3 prints it on
    the program's own stderr as it compiles it: so does each run now."""
    from problemtools_py.grading.testrun import RunLimits

    code = "n = int(input())\nif n is 5:\n    pass\nprint(n)\n"
    (tmp_path / "main.py").write_text(code)
    plain = subprocess.run(["python3", str(tmp_path / "main.py")], input="5\n",
                           capture_output=True, text=True, check=True)  # fmt: skip
    assert 'SyntaxWarning: "is" with a literal' in plain.stderr
    line = {"problem_id": IDS["echo"], "completion": py(code)}
    (tmp_path / "in.jsonl").write_text(json.dumps(line) + "\n")
    capfd.readouterr()
    assert main([str(dataset), str(tmp_path / "in.jsonl"), "-q"]) == 0
    out, err = capfd.readouterr()
    assert json.loads(out)["status"] == "ok"
    assert "SyntaxWarning" not in err
    with Grader(dataset, Settings(retries=0), jobs=1) as g:
        ran = g.execute(code, "python3", "5\n", RunLimits(5.0, 1 << 20))
    assert not isinstance(ran, GradeResult) and ran.stdout == b"5\n"
    said = ran.stderr.decode()
    assert said.replace("/prog/main.py", "main.py") == plain.stderr.replace(
        str(tmp_path / "main.py"), "main.py"
    )
