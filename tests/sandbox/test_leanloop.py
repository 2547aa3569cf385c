"""A lean session's run loop, in C (leanloop.c) and in Python (its fallback), in an init
that is a fresh interpreter or a fork of the sandbox server, gives the same results on the
same runs: outcomes, limits, leftovers, scratch space, a main file replaced between runs,
argv changes, setup failures, and a program's own module beside it."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.processes import processes_of

from problemtools_py.sandbox import native
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import LEAN_LOOP, Bind
from problemtools_py.sandbox.results import Limits, Outcome, RunResult, SandboxError

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="a lean session needs root")
LIMITS = Limits(cpu_seconds=1.0, memory_bytes=256 << 20, output_bytes=1 << 16)


def test_the_loop_is_built_once_and_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    built = native.library()
    assert built is not None and Path(built).is_file()  # (this machine has a C compiler)
    assert native.library() == built
    symbols = subprocess.run(["nm", "-D", built], capture_output=True, text=True, check=True)
    assert "ptpy_lean_serve" in symbols.stdout
    monkeypatch.setenv(LEAN_LOOP, "python")
    assert native.library() is None


def test_the_loop_is_built_in_the_sandboxs_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CPATH of the judge's shadows no header of the loop (the build is kept for every
    later run)."""
    shadow = tmp_path / "include"
    shadow.mkdir()
    (shadow / "signal.h").write_text("#error the judge's own header\n")
    monkeypatch.setenv("CPATH", str(shadow))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(native, "_built", [])
    built = native.library()
    assert built is not None and built.startswith(str(tmp_path / "cache"))


def test_a_caller_that_may_not_wait_gets_no_loop_while_it_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A forked init's session does not wait for another thread's build (it runs the
    Python loop); once built, every caller gets the library."""
    started, release = threading.Event(), threading.Event()

    def slow_build() -> str:
        started.set()
        release.wait(10)
        return "/built/leanloop.so"

    monkeypatch.setattr(native, "_built", [])
    monkeypatch.setattr(native, "_build", slow_build)
    builder = threading.Thread(target=native.library)
    builder.start()
    assert started.wait(10)
    assert native.library(wait=False) is None
    release.set()
    builder.join(10)
    assert native.library(wait=False) == native.library() == "/built/leanloop.so"
    monkeypatch.setattr(native, "_built", [])


@pytest.fixture(params=["c", "python", "c-forked", "python-forked"], scope="module")
def lean(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[Sandbox, Path]]:  # fmt: skip
    """A lean session with each loop and each kind of init, on a program directory bound
    at /prog."""
    loop, _, forked = str(request.param).partition("-")
    work = tmp_path_factory.mktemp(f"lean-{request.param}")
    work.chmod(0o755)
    saved = os.environ.get(LEAN_LOOP)
    if loop == "python":
        os.environ[LEAN_LOOP] = "python"
    try:  # (the loop is chosen when the session opens)
        with Sandbox() as box, box.session(limits=LIMITS, binds=[Bind(str(work), "/prog")],
                                           inprocess=True, lean=True, forked=bool(forked)):  # fmt: skip
            if saved is None:
                os.environ.pop(LEAN_LOOP, None)
            else:
                os.environ[LEAN_LOOP] = saved
            if not box.lean_open:
                pytest.skip("no lean session here (no memory cgroup, or another Python inside)")
            assert box.lean_loop == loop
            yield box, work
    finally:
        if saved is None:
            os.environ.pop(LEAN_LOOP, None)
        else:
            os.environ[LEAN_LOOP] = saved


def run(box: Sandbox, code: str | None, work: Path, data: bytes = b"", *args: str,
        argv: list[str] | None = None, limits: Limits = LIMITS) -> RunResult:  # fmt: skip
    if code is not None:
        (work / "main.py").write_text(code)
        (work / "main.py").chmod(0o644)
    fd = os.memfd_create("stdin")
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
        if argv is not None:
            return box.run_lean(argv, limits=limits, stdin=fd)
        argv = ["python3", "-S", "/prog/main.py", *args]
        return box.run_lean(argv, limits=limits, stdin=fd, inprocess=argv[2])
    finally:
        os.close(fd)


CASES = [
    ("echo", "print(input()[::-1])", Outcome.OK, b"cba\n"),
    ("exit-code", "import sys\nprint('x')\nsys.exit(4)", Outcome.RTE, b"x\n"),
    ("signal", "import os\nos.kill(os.getpid(), 9)", Outcome.RTE, b""),
    ("cpu-limit", "while True:\n    pass", Outcome.TLE, b""),
    ("wall-limit", "import time\ntime.sleep(30)", Outcome.TLE, b""),
    ("output-limit", "import sys\nwhile True:\n    sys.stdout.write('9' * 4096)", Outcome.OLE,
     None),
    ("memory", "x = bytearray(1 << 30)\nprint(len(x))", Outcome.MLE, b""),
]  # fmt: skip
# The memory case touches 256 MiB before the cgroup ends it: ~0.75 s of CPU where the first
# touch of fresh memory is slow (a Firecracker VM, ~3 s a GiB), more on a loaded machine.
# Its CPU limit is far from that, so the memory limit alone decides it on any machine.
ROOMY = dataclasses.replace(LIMITS, cpu_seconds=10.0)


def limits_of(name: str) -> Limits:
    return ROOMY if name == "memory" else LIMITS


@pytest.mark.parametrize(("name", "code", "outcome", "stdout"), CASES, ids=[c[0] for c in CASES])
def test_outcomes(lean: tuple[Sandbox, Path], name: str, code: str, outcome: Outcome,
                  stdout: bytes | None) -> None:  # fmt: skip
    box, work = lean
    result = run(box, code, work, b"abc\n", limits=limits_of(name))
    assert result.outcome is outcome, result
    if stdout is not None:
        assert result.stdout == stdout
    if name == "signal":
        assert result.signal == 9 and result.exit_code is None
    if name == "cpu-limit":
        assert 1.0 <= result.cpu_seconds < 2.0 and not result.wall_killed
    if name == "wall-limit":
        assert result.wall_killed and result.queued_seconds is not None
    if name == "memory":  # (the cgroup killed it: counted by the init after the run)
        assert result.signal == 9 and result.peak_memory_bytes > 200 << 20
    assert run(box, "print('next')", work).stdout == b"next\n"  # the session goes on


EXEC_CASES = [case for case in CASES if case[0] != "wall-limit"]  # (the same wait as in-process)


@pytest.mark.parametrize(("name", "code", "outcome", "stdout"), EXEC_CASES,
                         ids=[c[0] for c in EXEC_CASES])  # fmt: skip
def test_outcomes_of_exec_runs(lean: tuple[Sandbox, Path], name: str, code: str,
                               outcome: Outcome, stdout: bytes | None) -> None:  # fmt: skip
    """The same programs exec'd (the C loop starts them without a copy of the init)."""
    box, work = lean
    result = run(box, code, work, b"abc\n", argv=["python3", "-S", "/prog/main.py"],
                 limits=limits_of(name))
    assert result.outcome is outcome, result
    if stdout is not None:
        assert result.stdout == stdout
    if name == "cpu-limit":
        assert 1.0 <= result.cpu_seconds < 2.0 and not result.wall_killed
    assert run(box, None, work, argv=["echo", "next"]).stdout == b"next\n"


def test_an_exec_run_starts_as_a_new_program(lean: tuple[Sandbox, Path]) -> None:
    """As the sandbox's user, without privileges, no signal ignored or blocked, only its
    three descriptors open, its limits set, in the session's cgroup."""
    box, work = lean
    status = run(box, None, work, argv=["cat", "/proc/self/status"]).stdout.decode()
    fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
    assert fields["Uid"].split()[0] == str(box.user[0]) and fields["NoNewPrivs"] == "1"
    assert int(fields["SigIgn"], 16) == 0 and int(fields["SigBlk"], 16) == 0, fields
    assert run(box, None, work, argv=["ls", "/proc/self/fd"]).stdout == b"0\n1\n2\n3\n"
    limits = run(box, None, work, argv=["cat", "/proc/self/limits"]).stdout.decode()
    assert re.search(r"Max cpu time\s+3\s+4 ", limits), limits  # (LIMITS' second, and 2 more)
    assert re.search(r"Max core file size\s+0\s+0 ", limits), limits
    cgroups = run(box, None, work, argv=["cat", "/proc/self/cgroup"]).stdout
    assert cgroups == run(box, "print(open('/proc/self/cgroup').read(), end='')", work).stdout


def test_an_exec_run_searches_the_path_as_python_does(lean: tuple[Sandbox, Path]) -> None:
    """A name without a slash is looked for in each directory of the run's PATH; the
    failure told is the first that is not "not found" (a file that may not be run)."""
    box, work = lean
    tools = work / "bin"
    tools.mkdir(exist_ok=True)
    tools.chmod(0o755)
    for name in ("cat", "tool"):
        (tools / name).write_text("not a program\n")
        (tools / name).chmod(0o644)
    path = {"PATH": "/nowhere:/prog/bin:/usr/bin:/bin"}
    assert _exec(box, ["cat"], path, b"through\n").stdout == b"through\n"
    refused = "[Errno 13] Permission denied: b'/prog/bin/tool'"  # (searched for: bytes)
    with pytest.raises(SandboxError, match=re.escape(refused)):
        _exec(box, ["tool"], path)
    missing = "[Errno 2] No such file or directory: b'/bin/none'"
    with pytest.raises(SandboxError, match=re.escape(missing)):
        _exec(box, ["none"], {"PATH": "/usr/bin:/bin"})
    assert run(box, None, work, argv=["echo", "next"]).stdout == b"next\n"


def _exec(box: Sandbox, argv: list[str], env: dict[str, str], data: bytes = b"") -> RunResult:
    fd = os.memfd_create("stdin")
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
        return box.run_lean(argv, limits=LIMITS, stdin=fd, env=env)
    finally:
        os.close(fd)


def test_a_main_file_rewritten_in_place_runs_anew(lean: tuple[Sandbox, Path]) -> None:
    """Same size, same inode, within one clock tick: compared by content, not by time."""
    box, work = lean
    for text in ("print('a')", "print('b')", "print('c')", "print('c')", "print('a')"):
        assert run(box, text, work).stdout == f"{text[7]}\n".encode()


def test_argv_and_exec_changes_reach_the_init(lean: tuple[Sandbox, Path]) -> None:
    box, work = lean
    code = "import sys\nprint(sys.argv[1:])"
    assert run(box, code, work, b"", "x").stdout == b"['x']\n"
    assert run(box, None, work, b"", "y", "z").stdout == b"['y', 'z']\n"
    executed = run(box, None, work, argv=["python3", "-S", "/prog/main.py", "w"])
    assert executed.stdout == b"['w']\n"
    missing = "sandbox setup failed: [Errno 2] No such file or directory: '/no/such/program'"
    with pytest.raises(SandboxError, match=re.escape(missing)):
        run(box, None, work, argv=["/no/such/program"])
    assert run(box, None, work, b"", "v").stdout == b"['v']\n"


def test_scratch_space_and_processes_do_not_outlive_a_run(lean: tuple[Sandbox, Path]) -> None:
    box, work = lean
    leave = ("import os, subprocess\nopen('/tmp/left', 'w').write('x')\n"
             "subprocess.Popen(['sleep', '60'], start_new_session=True)\nprint(os.getpid())")  # fmt: skip
    assert run(box, leave, work).ok
    found = run(box, "import os\nprint(os.path.exists('/tmp/left'), len(os.listdir('/proc')))",
                work)  # fmt: skip
    assert found.stdout.split()[0] == b"False"
    assert not [p for p in processes_of(box.user) if "sleep 60" in p]


def test_each_run_is_seeded_afresh(lean: tuple[Sandbox, Path]) -> None:
    box, work = lean
    code = "import random\nprint(random.random(), random.gauss(0, 1))"
    outputs = {run(box, code, work).stdout for _ in range(3)}
    assert len(outputs) == 3


def test_a_session_imports_only_the_modules_its_program_names(
    lean: tuple[Sandbox, Path], request: pytest.FixtureRequest
) -> None:
    """Of inprocess.PRELOAD, a fresh init imports (once) what the program may import: a
    program that names no module pays for none of them. A forked init has the server's
    (all of them, imported before it forked)."""
    box, work = lean
    probe = "print(sorted(m for m in ('decimal', 'fractions', 'heapq') if m in {}))"
    bare = run(box, f"import sys\n{probe.format('sys.modules')}", work)
    forked = str(request.node.callspec.params["lean"]).endswith("forked")
    assert bare.stdout == (b"['decimal', 'fractions', 'heapq']\n" if forked else b"[]\n")
    if forked:
        return
    uses = run(box, f"import sys\nfrom heapq import heappush\n{probe.format('sys.modules')}",
               work)  # fmt: skip
    assert uses.stdout == b"['heapq']\n"


def test_a_program_that_may_open_a_file_finds_the_codecs_looked_up(
    lean: tuple[Sandbox, Path],
) -> None:
    """inprocess.CODECS: looked up by the init where the program names ``open`` (or
    decode...), so that its runs do not import them (a run's own import would leave the
    init without them)."""
    box, work = lean
    (work / "latin.txt").write_bytes("Gauß\n".encode("latin-1"))
    (work / "latin.txt").chmod(0o644)
    code = "import sys\nprint('encodings.latin_1' in sys.modules)\n"
    code += "print(open('/prog/latin.txt', encoding='latin-1').read().strip())"
    for _ in range(2):
        assert run(box, code, work).stdout == "True\nGauß\n".encode()


def test_a_programs_patterns_are_compiled_once_by_the_init(lean: tuple[Sandbox, Path]) -> None:
    """inprocess.precompile_patterns: each run finds its pattern in re's cache; a pattern
    that warns is compiled by the run, which prints the warning a new python3 prints."""
    box, work = lean
    code = "import re\nprint(any(key[1] == '[0-9]+' for key in re._cache))\n"
    code += "print(bool(re.fullmatch('[0-9]+', '12')))"
    for _ in range(2):
        assert run(box, code, work).stdout == b"True\nTrue\n"
    warns = run(box, "import re\nprint(re.compile('[[a]').pattern)", work)
    assert warns.stdout == b"[[a]\n"
    assert b"FutureWarning: Possible nested set" in warns.stderr


def test_the_init_never_imports_from_the_programs_directory_for_its_patterns(
    tmp_path: Path,
) -> None:
    """precompile_patterns imports warnings in a fresh init (root, PID 1 of the jail):
    from the standard library only, also once a program made its directory the first on
    the init's path. Found there, a ``warnings.py`` beside the program would run as the
    init; it is the program's own import that loads it, as in a new python3."""
    tmp_path.chmod(0o755)
    (tmp_path / "warnings.py").write_text("import os\nos.environ['OWN'] = str(os.getpid())\n")
    (tmp_path / "warnings.py").chmod(0o644)
    with Sandbox() as box, box.session(limits=LIMITS, binds=[Bind(str(tmp_path), "/prog")],
                                       inprocess=True, lean=True):  # fmt: skip
        if not box.lean_open:
            pytest.skip("no lean session here (no memory cgroup, or another Python inside)")
        assert run(box, "print(1)", tmp_path).stdout == b"1\n"  # (its path is the init's now)
        probe = "import os, re\nprint(bool(re.match('[ab]+', 'a')), os.environ.get('OWN'))"
        assert run(box, probe, tmp_path).stdout == b"True None\n"
        imports = "import os, re, warnings\nprint(os.environ.get('OWN') not in (None, '1'))"
        assert run(box, imports, tmp_path).stdout == b"True\n"


def test_a_module_beside_the_program_is_the_one_it_imports(lean: tuple[Sandbox, Path]) -> None:
    """The init's import of a named module never reads the program's directory (a module
    there runs as the program, in its own process), and the program gets its own module,
    as a new python3 would give it, also where the init has the standard one (forked)."""
    box, work = lean
    (work / "fractions.py").write_text("import os\nprint('own', os.getpid() != 1)\n")
    (work / "fractions.py").chmod(0o644)
    try:
        result = run(box, "import fractions\nprint(fractions.__file__)", work)
        assert result.stdout == b"own True\n/prog/fractions.py\n", result
        assert run(box, "print('next')", work).stdout == b"next\n"
    finally:
        (work / "fractions.py").unlink()


def test_without_a_compiler_the_python_loop_serves(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:  # fmt: skip
    """No C compiler (or a build that fails): no library, and a lean session still runs,
    on the Python loop."""
    monkeypatch.setattr(native, "_built", [])
    monkeypatch.setattr(native, "_compiler", lambda: None)
    assert native.library() is None
    monkeypatch.setattr(native, "_built", [])
    monkeypatch.setattr(native, "_compiler", lambda: "/bin/false")  # a build that fails
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert native.library() is None
    work = tmp_path / "prog"
    work.mkdir()
    work.chmod(0o755)
    with Sandbox() as box, box.session(limits=LIMITS, binds=[Bind(str(work), "/prog")],
                                       inprocess=True, lean=True):  # fmt: skip
        if not box.lean_open:
            pytest.skip("no lean session here")
        assert box.lean_loop == "python"
        assert run(box, "print(input() * 2)", work, b"ab\n").stdout == b"abab\n"
    monkeypatch.setattr(native, "_built", [])


JUDGE = """
import os, sys, time
from pathlib import Path
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits
work = Path(sys.argv[1])
box = Sandbox()
limits = Limits(cpu_seconds=1.0, memory_bytes=256 << 20)
with box.session(limits=limits, binds=[Bind(str(work), "/prog")], inprocess=True, lean=True):
    fd = os.memfd_create("stdin")
    run = box.run_lean(["python3", "-S", "/prog/main.py"], limits=limits, stdin=fd,
                       inprocess="/prog/main.py")
    print(box.proc.pid, box.lean_open, run.stdout.decode().strip(), flush=True)
    time.sleep(600)
"""


def test_a_session_its_judge_abandoned_leaves_no_jail_or_cgroup(tmp_path: Path) -> None:
    """The judge dies (SIGKILL) with a lean session open: its server ends the session."""
    tmp_path.chmod(0o755)
    (tmp_path / "main.py").write_text("print(7)\n")
    (tmp_path / "main.py").chmod(0o644)
    judge = subprocess.Popen([sys.executable, "-c", JUDGE, str(tmp_path)],
                             stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert judge.stdout is not None
    server, lean_open, printed = judge.stdout.readline().split()
    if lean_open != "True":
        judge.kill()
        judge.wait()
        pytest.skip("no lean session here")
    assert printed == "7"
    judge.kill()
    judge.wait()
    judge.stdout.close()
    deadline = time.monotonic() + 30
    while Path(f"/proc/{server}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{server}").exists()
    assert list(Path("/sys/fs/cgroup").glob(f"**/ptpy-{server}-*")) == []
