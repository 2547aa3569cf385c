"""Hostile programs against the sandbox: each gets its exact outcome, and the judge and the
machine are left as they were."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.processes import processes_of

from problemtools_py.sandbox import client as sandbox_module
from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import ENV, STACK, Bind
from problemtools_py.sandbox.results import Limits, Outcome, RunResult

ROOT = os.geteuid() == 0
needs_root = pytest.mark.skipif(not ROOT, reason="full isolation needs root")
LIMITS = Limits(cpu_seconds=1.0, memory_bytes=256 << 20, output_bytes=1 << 20)

PROGRAMS = {
    "busy": "int main(void){volatile unsigned long x=0;for(;;)x++;}",
    "alloc": r"""#include <stdio.h>
#include <stdlib.h>
int main(void){size_t n=(size_t)8<<30;volatile char*p=malloc(n);if(!p){puts("null");return 3;}
for(size_t i=0;i<n;i+=4096)p[i]=1;unsigned long s=0;for(size_t i=0;i<n;i+=4096)s+=p[i];
printf("%lu\n",s);return 0;}""",
    "forks": r"""#include <stdio.h>
#include <unistd.h>
int main(void){int ok=0,fail=0;for(int i=0;i<2000;i++){pid_t p=fork();
if(p==0){sleep(30);_exit(0);}if(p>0)ok++;else fail++;}printf("%d %d\n",ok,fail);return 0;}""",
    "stacks": r"""#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
int main(void){pthread_attr_t a;size_t n;struct rlimit r;pthread_attr_init(&a);
pthread_attr_getstacksize(&a,&n);getrlimit(RLIMIT_STACK,&r);
printf("%zu %s\n",n,r.rlim_cur==RLIM_INFINITY?"unlimited":"limited");return 0;}""",
    "segv": "int main(void){volatile int *p=0;*p=1;return 0;}",
    "abort": "#include <stdlib.h>\nint main(void){abort();}",
    "bigfile": r"""#include <stdio.h>
int main(void){FILE*f=fopen("/tmp/big","w");static char b[1<<20];
for(int i=0;i<1024;i++)if(fwrite(b,1,sizeof b,f)!=sizeof b){puts("short write");return 4;}
fclose(f);return 0;}""",
}


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("hostile")
    directory.chmod(0o755)
    for name, source in PROGRAMS.items():
        (directory / f"{name}.c").write_text(source)
        subprocess.run(["gcc", "-O2", "-o", str(directory / name), str(directory / f"{name}.c")],
                       check=True)
    return directory


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        yield sandbox




def run(box: Sandbox, argv: list[str], programs: Path, limits: Limits = LIMITS, **kw: object):  # type: ignore[no-untyped-def]
    binds = [Bind(str(programs), "/prog"), *kw.pop("binds", [])]  # type: ignore[misc]
    result = box.run(argv, limits=limits, binds=binds, **kw)  # type: ignore[arg-type]
    assert processes_of(box.user) == [], "a process of the run outlived it"
    return result


@needs_root
def test_isolation_is_full(box: Sandbox) -> None:
    assert box.isolation == "full"


@needs_root
def test_runs_as_its_own_user_in_a_private_root(box: Sandbox, programs: Path) -> None:
    result = run(box, ["sh", "-c", "id -u; ls /; pwd"], programs)
    uid, *rest = result.stdout.decode().split()
    assert uid == str(box.user[0]) and rest[-1] == "/work"
    assert set(rest[:-1]) <= {"bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc",
                              "prog", "sbin", "tmp", "usr", "work"}


def test_a_runs_wait_for_a_cpu_is_known_at_its_end(box: Sandbox, programs: Path) -> None:
    result = run(box, ["true"], programs)
    assert result.ok and (result.queued_seconds is not None or box.isolation != "full")


def test_busy_loop_is_tle_by_cpu(box: Sandbox, programs: Path) -> None:
    result = run(box, ["/prog/busy"], programs)
    assert result.outcome is Outcome.TLE and not result.wall_killed
    assert 1.0 <= result.cpu_seconds < 2.5


def test_sleep_is_tle_by_the_wall_clock(box: Sandbox, programs: Path) -> None:
    limits = Limits(cpu_seconds=0.5, memory_bytes=256 << 20)
    result = run(box, ["sleep", "30"], programs, limits)
    assert result.outcome is Outcome.TLE and result.wall_killed
    assert result.cpu_seconds < 0.5 and 2.0 <= result.wall_seconds < 4
    if box.isolation == "full":  # it slept: its wait for a CPU is known, and small
        assert result.queued_seconds is not None and not result.starved


@needs_root
def test_8_gib_allocation_is_mle(box: Sandbox, programs: Path) -> None:
    result = run(box, ["/prog/alloc"], programs)
    assert result.outcome is Outcome.MLE
    assert result.peak_memory_bytes >= 200 << 20


def test_infinite_output_is_ole_and_never_written_past_the_limit(
        box: Sandbox, programs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run(box, ["yes"], programs, stdout=out)
    assert result.outcome is Outcome.OLE and result.output_bytes > LIMITS.output_bytes
    assert out.stat().st_size == LIMITS.output_bytes


@needs_root
def test_fork_storm_is_bounded_and_reaped(box: Sandbox, programs: Path) -> None:
    result = run(box, ["/prog/forks"], programs)
    made, failed = map(int, result.stdout.split())
    assert made + failed == 2000 and made < LIMITS.processes
    assert result.outcome is Outcome.OK


@needs_root
def test_double_forked_daemon_dies_with_the_run(box: Sandbox, programs: Path,
                                                tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    script = "(sh -c 'sleep 3; echo late > /shared/daemon.txt' &); echo started"
    result = run(box, ["sh", "-c", script], programs, binds=[Bind(str(shared), "/shared", True)])
    assert result.outcome is Outcome.OK and result.stdout == b"started\n"
    time.sleep(3.5)
    assert not (shared / "daemon.txt").exists()


@needs_root
def test_cannot_read_files_outside_its_sandbox(box: Sandbox, programs: Path,
                                               tmp_path: Path) -> None:
    answer = tmp_path / "secret.ans"
    answer.write_text("the answer is 42\n")
    answer.chmod(0o644)
    tmp_path.chmod(0o755)
    result = run(box, ["cat", str(answer), str(Path.cwd() / "README.md")], programs)
    assert result.outcome is Outcome.RTE and b"42" not in result.stdout
    assert b"No such file or directory" in result.stderr


@needs_root
def test_cannot_read_parent_memory_or_see_the_judge(box: Sandbox, programs: Path) -> None:
    script = "cat /proc/1/mem; cat /proc/1/environ; ls /proc | grep -c '^[0-9]'"
    result = run(box, ["sh", "-c", script], programs)
    assert result.stderr.count(b"Permission denied") == 2
    assert int(result.stdout.split()[-1]) <= 4  # only the run's own processes
    assert str(os.getpid()).encode() not in result.stdout


@needs_root
def test_cannot_kill_its_parent_or_the_judge(box: Sandbox, programs: Path) -> None:
    script = f"kill -9 1; kill -9 -1; kill -9 {os.getpid()}; kill -9 {box.proc.pid}; echo alive"
    result = run(box, ["sh", "-c", script], programs)
    assert result.stdout == b"alive\n"
    assert box.proc.poll() is None
    assert run(box, ["echo", "still here"], programs).stdout == b"still here\n"


def test_a_server_whose_line_is_closed_is_not_alive(box: Sandbox) -> None:
    """A killed server's end of the line closes before its process can be reaped: a run
    then fails at once, and the pool must not hand that sandbox out again (its process
    still looks alive for a moment). Here a closed line stands in for that moment."""
    real, (ours, theirs) = box.sock, socket.socketpair()
    theirs.close()
    box.sock = ours
    try:
        assert box.proc.poll() is None and not box.alive
    finally:
        box.sock = real
        ours.close()
    assert box.alive and box.run(["true"], limits=LIMITS).ok


@needs_root
def test_no_network_even_to_localhost(box: Sandbox, programs: Path) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        code = f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2)"
        result = run(box, ["python3", "-c", code], programs)
    assert result.outcome is Outcome.RTE
    assert b"Network is unreachable" in result.stderr


@needs_root
def test_filling_the_disk_is_stopped(box: Sandbox, programs: Path) -> None:
    script = "dd if=/dev/zero of=/tmp/big bs=1M count=1024"
    result = run(box, ["sh", "-c", script], programs)
    assert result.outcome is Outcome.RTE  # dd dies of SIGXFSZ, as it would anywhere
    assert b"File size limit exceeded" in result.stderr or b"No space left" in result.stderr


def test_writing_past_the_file_size_limit_is_sigxfsz(box: Sandbox, programs: Path) -> None:
    result = run(box, ["/prog/bigfile"], programs)
    assert result.outcome is Outcome.RTE and result.signal == signal.SIGXFSZ, result


@pytest.mark.parametrize(("name", "sig"), [("segv", signal.SIGSEGV), ("abort", signal.SIGABRT)])
def test_crashes_are_rte_with_their_signal(box: Sandbox, programs: Path, name: str,
                                           sig: signal.Signals) -> None:
    result = run(box, [f"/prog/{name}"], programs)
    assert result.outcome is Outcome.RTE and result.signal == sig
    assert result.describe() == f"signal {sig.name}"


def test_exit_code_is_rte(box: Sandbox, programs: Path) -> None:
    result = run(box, ["sh", "-c", "exit 3"], programs)
    assert result.outcome is Outcome.RTE and result.exit_code == 3


def test_stdin_from_a_file(box: Sandbox, programs: Path, tmp_path: Path) -> None:
    data = tmp_path / "in"
    data.write_text("3 4\n")
    result = run(box, ["sh", "-c", "read a b; echo $((a*b))"], programs, stdin=data)
    assert result.outcome is Outcome.OK and result.stdout == b"12\n"


@needs_root
def test_no_cgroups_are_left_behind(box: Sandbox, programs: Path) -> None:
    run(box, ["true"], programs)
    leftovers = list(Path("/sys/fs/cgroup").glob(f"**/ptpy-{box.proc.pid}-*"))
    assert leftovers == []


def test_without_isolation_limits_still_hold_and_it_warns(
        programs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warnings: list[str] = []
    monkeypatch.setattr(sandbox_module, "warn_hook", warnings.append)
    monkeypatch.setattr(sandbox_module, "_warned", False)
    with Sandbox(isolate=False) as plain, Sandbox(isolate=False):
        assert plain.isolation.startswith("partial")
        assert run(plain, ["/prog/busy"], programs).outcome is Outcome.TLE
        limits = Limits(cpu_seconds=0.5)
        assert run(plain, ["sleep", "30"], programs, limits).wall_killed
        assert run(plain, ["yes"], programs).outcome is Outcome.OLE
        assert run(plain, ["sh", "-c", "echo $((6*7))"], programs).stdout == b"42\n"
    assert len(warnings) == 1 and "resource limits only" in warnings[0]


@needs_root
def test_a_session_runs_each_test_fresh(box: Sandbox, programs: Path) -> None:
    binds = [Bind(str(programs), "/prog")]
    script = "ls /tmp /work; touch /tmp/left /work/left; (sleep 30 &); echo done"
    with box.session(limits=LIMITS, binds=binds):
        first = box.run(["sh", "-c", script], limits=LIMITS)
        assert processes_of(box.user) == []
        second = box.run(["sh", "-c", script], limits=LIMITS)
        busy = box.run(["/prog/busy"], limits=LIMITS)
        after = box.run(["sh", "-c", "echo ok"], limits=LIMITS)
    assert first.stdout == second.stdout == b"/tmp:\n\n/work:\ndone\n"
    assert busy.outcome is Outcome.TLE and busy.cpu_seconds >= 1.0
    assert after.ok and after.cpu_seconds < 0.5  # CPU is counted per run
    assert processes_of(box.user) == []


@needs_root
def test_peak_memory_is_per_run_in_a_session(box: Sandbox, programs: Path) -> None:
    with box.session(limits=LIMITS, binds=[Bind(str(programs), "/prog")]):
        big = box.run(["python3", "-c", "x = bytearray(100 << 20); print(len(x))"], limits=LIMITS)
        small = box.run(["true"], limits=LIMITS)
    assert big.ok and big.peak_memory_bytes >= 100 << 20
    assert small.peak_memory_bytes < 50 << 20


INPROCESS = {
    "echo.py": "print(input()[::-1])",
    "fail.py": "import sys\nprint('partial')\nsys.exit(3)",
    "raise.py": "raise ValueError('nope')",
    "deep.py": "import sys\nsys.setrecursionlimit(10**6)\ndef f(n): return 0 if n == 0 else 1 + f(n - 1)\nprint(f(100000))",
    "fds.py": "import os\nprint(sorted(os.listdir('/proc/self/fd')))",
    "imports.py": "import fractions, statistics, json\nprint(statistics.mean([1, 2]), json.dumps(fractions.Fraction(1, 2).numerator))",
    "argv.py": "import sys\nprint(sys.argv[1:], __name__)",
    # the jail's init runs real-time; its programs must not
    "sched.py": "import os\nprint(os.sched_getscheduler(0) == os.SCHED_OTHER, os.nice(0))",
    "stdio.py": "import sys\nprint(sys.stdin.seekable(), sys.stdout.seekable(), sys.stdout.line_buffering,"
                " sys.stderr.line_buffering, sys.stdin.encoding, sys.stdout.encoding,"
                " sys.stdin.buffer.read().decode().strip())",
    "env.py": "import os\nprint(sorted(os.environ.items()))",
    "signals.py": "import signal\nprint(signal.getsignal(signal.SIGUSR1))",
    "rand.py": "import random\nprint(random.random())",
    "rand2.py": "import random\nprint(random.random())",
    # a module beside the program named after one the sandbox preloads: its own is imported
    "string.py": "NAME = 'own'",
    "ownmod.py": "import string\nprint(string.__file__, getattr(string, 'NAME', None))",
    # a module the sandbox's own interpreters have loaded (not one a program is thought to
    # use), and a frozen one, which a new python3 finds before its directory
    "socket.py": "NAME = 'own'",
    "os.py": "NAME = 'own'",
    "ownsock.py": "import os, socket\nprint(socket.__file__, getattr(socket, 'NAME', None),"
                  " getattr(os, 'NAME', None))",
    # site's builtins (exit, quit...) as python3 has them, its site-packages on the path but
    # empty: the standard library only
    "nosite.py": "import builtins, os, sys\nprint(hasattr(builtins, 'exit'), hasattr(builtins, 'quit'),"
                 " 'site' in sys.modules, [os.listdir(p) for p in sys.path if 'packages' in p])",
}


def run_lean(box: Sandbox, argv: list[str], data: bytes) -> RunResult:
    """A run on a lean session's direct line, as the grader makes it (stdin a memory file)."""
    fd = os.memfd_create("stdin")
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
        assert box.lean_open
        main = next(arg for arg in argv if arg.startswith("/prog/"))
        return box.run_lean(argv, limits=LIMITS, stdin=fd, inprocess=main)
    finally:
        os.close(fd)


@pytest.mark.parametrize("mode", ["exec", "in-process", "lean", "lean-forked"])
def test_python_runs_the_same_in_process(box: Sandbox, tmp_path: Path, mode: str) -> None:
    """The same programs give the same results started as python3, forked from the sandbox
    server, and forked from a lean session's init, its own interpreter or a fork of the
    server (streams made in advance)."""
    lean = mode.startswith("lean")
    if lean and not (ROOT and box.python_matches()):
        pytest.skip("a lean session needs full isolation and the same Python inside")
    tmp_path.chmod(0o755)
    for name, source in INPROCESS.items():
        (tmp_path / name).write_text(source + "\n")
    data = tmp_path / "in"
    data.write_text("abc\n")
    results = {}
    inprocess = mode != "exec"
    with box.session(limits=LIMITS, binds=[Bind(str(tmp_path), "/prog")], inprocess=inprocess,
                     lean=lean, forked=mode == "lean-forked"):
        assert box.lean_open == lean
        for name in INPROCESS:
            argv = ["python3", f"/prog/{name}", "x"]
            if lean:
                results[name] = run_lean(box, argv, data.read_bytes())
            else:
                results[name] = box.run(argv, limits=LIMITS, stdin=data,
                                        inprocess=f"/prog/{name}" if inprocess else None)
    assert results["echo.py"].stdout == b"cba\n"
    assert (results["fail.py"].exit_code, results["fail.py"].stdout) == (3, b"partial\n")
    assert results["raise.py"].exit_code == 1 and b"ValueError: nope" in results["raise.py"].stderr
    assert b"Traceback" in results["raise.py"].stderr
    assert results["deep.py"].stdout == b"100000\n"
    assert results["fds.py"].stdout in (b"['0', '1', '2']\n", b"['0', '1', '2', '3']\n")
    assert results["imports.py"].stdout == b"1.5 1\n"
    assert results["argv.py"].stdout == b"['x'] __main__\n"
    assert results["sched.py"].stdout == b"True 0\n"
    assert results["stdio.py"].stdout == b"True False False True utf-8 utf-8 abc\n"
    assert results["env.py"].stdout == (repr(sorted(ENV.items())) + "\n").encode()
    assert results["signals.py"].stdout == b"0\n"  # SIG_DFL
    assert results["nosite.py"].stdout == b"True True True [[], []]\n"
    assert results["ownmod.py"].stdout == b"/prog/string.py own\n"
    assert results["ownsock.py"].stdout == b"/prog/socket.py own None\n"
    # each run is seeded afresh, as a new python3 is
    assert results["rand.py"].stdout != results["rand2.py"].stdout


def test_program_cannot_write_into_the_judges_descriptors(box: Sandbox, programs: Path) -> None:
    code = ("import os\nfor fd in range(3, 1024):\n    try:\n        os.write(fd, b'sandbox setup failed')"
            "\n    except OSError:\n        pass\nraise SystemExit(5)")
    result = run(box, ["python3", "-c", code], programs)
    assert result.outcome is Outcome.RTE and result.exit_code == 5


STREAMS = ("import sys\ndata = sys.stdin.read()\n"
           "print(repr(data), sys.stdin.errors, sys.stdout.errors, sys.stdin.newlines)")


def test_in_process_streams_match_python3(box: Sandbox, tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    (tmp_path / "s.py").write_text(STREAMS + "\n")
    data = tmp_path / "in"
    data.write_bytes(b"a\r\nb\xff\n")
    runs = [box.run(["python3", "/prog/s.py"], limits=LIMITS, stdin=data,
                    binds=[Bind(str(tmp_path), "/prog")], inprocess=main)
            for main in (None, "/prog/s.py")]
    assert runs[0].stdout == runs[1].stdout
    assert b"surrogateescape" in runs[0].stdout and b"\\r\\n" in runs[0].stdout


def test_in_process_python_imports_extension_modules(box: Sandbox, tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    code = "import hashlib, sqlite3, ssl\nprint(hashlib.sha256(b'').hexdigest()[:8])\nraise KeyError('k')\n"
    (tmp_path / "x.py").write_text(code)
    runs = [box.run(["python3", "/prog/x.py"], limits=LIMITS,
                    binds=[Bind(str(tmp_path), "/prog")], inprocess=main)
            for main in (None, "/prog/x.py")]
    assert runs[0].stdout == runs[1].stdout == b"e3b0c442\n"
    assert runs[0].stderr == runs[1].stderr  # the same traceback, no judge frames


@needs_root
def test_a_lean_session_takes_runs_only_on_its_direct_line(box: Sandbox, tmp_path: Path) -> None:
    """Its init is the grader's: a run sent through the server gets a clear error, and the
    session keeps working on its own line."""
    if not box.python_matches():
        pytest.skip("a lean session needs the same Python inside")
    tmp_path.chmod(0o755)
    (tmp_path / "echo.py").write_text("print(input())\n")
    with box.session(limits=LIMITS, binds=[Bind(str(tmp_path), "/prog")], inprocess=True,
                     lean=True):
        with pytest.raises(sandbox_module.SandboxError, match="direct line"):
            box.run(["true"], limits=LIMITS)
        read, write = os.pipe()  # the programs' streams are made for a memory file
        with pytest.raises(ValueError, match="regular"):
            box.run_lean(["python3", "/prog/echo.py"], limits=LIMITS, stdin=read,
                         inprocess="/prog/echo.py")
        os.close(read)
        os.close(write)
        result = run_lean(box, ["python3", "-S", "/prog/echo.py"], b"hi\n")
    assert result.ok and result.stdout == b"hi\n"


def test_programs_start_with_default_signal_actions(box: Sandbox, tmp_path: Path) -> None:
    """Python (and the sandbox server) ignore SIGPIPE, SIGXFSZ and SIGINT; ignored signals
    survive exec, so a C program would not die of a closed pipe or of the file-size limit."""
    script = ["sh", "-c", "grep SigIgn /proc/self/status"]
    alone = box.run(script, limits=LIMITS)
    with box.session(limits=LIMITS):
        in_session = box.run(script, limits=LIMITS)
    for result in (alone, in_session):
        assert result.stdout.decode().split() == ["SigIgn:", "0000000000000000"], result


def test_a_judge_started_by_nohup_in_the_background_gives_programs_default_actions(
    tmp_path: Path,
) -> None:
    """nohup ignores SIGHUP, a shell's background job SIGINT and SIGQUIT, and the
    sandbox's server inherits that: its programs (a run, a session's, a lean session's
    exec'd one) must not."""
    inherited = {number: signal.signal(number, signal.SIG_IGN)
                 for number in (signal.SIGHUP, signal.SIGQUIT)}  # fmt: skip
    try:
        with Sandbox() as box:
            script = ["sh", "-c", "grep SigIgn /proc/self/status"]
            results = [box.run(script, limits=LIMITS)]
            with box.session(limits=LIMITS):
                results.append(box.run(script, limits=LIMITS))
            with box.session(limits=LIMITS, binds=[Bind(str(tmp_path), "/prog")], lean=True):
                if box.lean_open:
                    stdin = os.memfd_create("stdin")
                    results.append(box.run_lean(script, limits=LIMITS, stdin=stdin))
                    os.close(stdin)
    finally:
        for number, action in inherited.items():
            signal.signal(number, action)
    assert len(results) >= 2  # (and the lean one where lean sessions open)
    for result in results:
        assert result.stdout.decode().split() == ["SigIgn:", "0000000000000000"], result


COMMAND_LINES = {
    "argv": "import sys; print(sys.argv, repr(sys.path[0]), __name__)",
    "syntax": "def f(:",
    "exit": "import sys; sys.stdout.write('x'); sys.exit(4)",
}


@pytest.mark.parametrize("name", COMMAND_LINES)
def test_python_dash_c_runs_the_same_in_process(box: Sandbox, name: str) -> None:
    """``python3 -S -c CODE args`` forked from the server (the compile step of Python
    programs) as started afresh: argv, path, output, exit status, error."""
    argv = ["python3", "-S", "-c", COMMAND_LINES[name], "a.py", "b.py"]
    fresh, forked = (box.run(argv, limits=LIMITS, inprocess=main) for main in (None, "-c"))
    assert (forked.exit_code, forked.stdout) == (fresh.exit_code, fresh.stdout)
    assert forked.error_line() == fresh.error_line()
    if name == "argv":
        assert fresh.stdout == b"['-c', 'a.py', 'b.py'] '' __main__\n"
    if name == "syntax":
        assert fresh.exit_code == 1 and fresh.error_line().startswith("SyntaxError")


FLOOD_STDERR = (
    "import os\nblock = b'e' * (1 << 16)\nfor _ in range(1100):\n    os.write(2, block)\n"
    "os.write(2, b'the end of stderr')\nprint('done')\n"
)


@pytest.mark.parametrize("mode", ["server", "lean"])
def test_a_stderr_flood_past_the_file_size_limit_is_read_and_dropped(
    box: Sandbox, tmp_path: Path, mode: str
) -> None:
    """~69 MiB of stderr, over a run's 64 MiB file-size limit, then the answer: the run
    ends well on every path, its stderr's tail kept (a held jail kept stderr in a memory
    file, whose size limit ended such a run in SIGXFSZ, where the server drained it)."""
    if mode == "lean" and not (ROOT and box.python_matches()):
        pytest.skip("a lean session needs full isolation and the same Python inside")
    tmp_path.chmod(0o755)
    (tmp_path / "flood.py").write_text(FLOOD_STDERR)
    limits = Limits(cpu_seconds=10.0, memory_bytes=256 << 20, output_bytes=1 << 20)
    argv = ["python3", "/prog/flood.py"]
    with box.session(limits=limits, binds=[Bind(str(tmp_path), "/prog")], inprocess=True,
                     lean=mode == "lean"):  # fmt: skip
        if mode == "lean":
            fd = os.memfd_create("stdin")
            try:
                run = box.run_lean(argv, limits=limits, stdin=fd, inprocess="/prog/flood.py")
            finally:
                os.close(fd)
        else:
            run = box.run(argv, limits=limits, inprocess="/prog/flood.py")
    assert (run.outcome, run.exit_code, run.stdout) == (Outcome.OK, 0, b"done\n"), run
    assert run.stderr.endswith(b"the end of stderr") or mode == "server"


@pytest.mark.skipif(resource.getrlimit(resource.RLIMIT_STACK)[1] != resource.RLIM_INFINITY,
                    reason="an unlimited stack needs an unlimited hard limit")  # fmt: skip
@pytest.mark.parametrize("mode", ["server", "lean"])
def test_an_unlimited_stack_is_runguards(box: Sandbox, programs: Path, mode: str) -> None:
    """Limits.unlimited_stack (DOMjudge's runguard): RLIMIT_STACK unlimited, so glibc
    gives a new thread 2 MiB; otherwise every thread has the judge's 1 GiB."""
    got = {}
    for unlimited in (False, True):
        limits = replace(LIMITS, unlimited_stack=unlimited)
        if mode == "server":
            got[unlimited] = run(box, ["/prog/stacks"], programs, limits).stdout
            continue
        with box.session(limits=limits, binds=[Bind(str(programs), "/prog")], lean=True):
            fd = os.memfd_create("stdin")
            try:
                got[unlimited] = box.run_lean(["/prog/stacks"], limits=limits, stdin=fd).stdout
            finally:
                os.close(fd)
    assert got == {False: f"{STACK} limited\n".encode(), True: b"2097152 unlimited\n"}
