"""Per-test overhead of running one trivial Python 3 program, side by side in one run:

- baseline:   subprocess.run([python3, file]), no isolation, no limits: python3 as found
              on PATH (here possibly a pyenv shim) and the system interpreter itself
- sandboxed:  Sandbox.run of `python3 -S file` (fresh interpreter, full isolation)
- in-process: Sandbox.run with inprocess= (the sandbox server's forked interpreter)
- session:    the same inside Sandbox.session(): one jail for all tests of a program, so
              each test costs one fork of the jail's init
- lean:       a lean session, as the grader uses it: the caller talks to the jail's init
              (a fresh, small interpreter) directly, without the sandbox server

Then the same for a compiled C program (static, as judges build C), exec'd: the baseline
subprocess.run of it, its floor (os.posix_spawn and a wait, nothing read), and lean
sessions with each kind of init (the held jails of verifyproblem and the grader).

Prints the median and 90th percentile wall time per test and the ratio to the baseline.
Usage: python bench/per_test_overhead.py [--runs N]"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from problemtools_py.sandbox.client import Sandbox
from problemtools_py.sandbox.protocol import Bind
from problemtools_py.sandbox.results import Limits

PROGRAM = "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n"
C_PROGRAM = (
    "#include <stdio.h>\nint main(void) { long long x, s = 0;\n"
    "  while (scanf(\"%lld\", &x) == 1) s += x;\n  printf(\"%lld\\n\", s); return 0; }\n"
)
LIMITS = Limits(cpu_seconds=2, memory_bytes=512 << 20, output_bytes=1 << 20)


def measure(call: Callable[[], object], runs: int) -> list[float]:
    call()  # warm up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ptpy-bench-"))
    work.chmod(0o755)
    program, data = work / "main.py", work / "in"
    program.write_text(PROGRAM)
    data.write_text("1 2 3\n")
    on_path = shutil.which("python3") or "python3"
    system = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else on_path
    binds = [Bind(str(work), "/prog")]
    with Sandbox() as box:
        results = {
            "baseline: subprocess.run /usr/bin/python3": measure(
                lambda: subprocess.run(
                    [system, str(program)], stdin=data.open("rb"), capture_output=True, check=True
                ),
                args.runs,
            ),
            f"subprocess.run {on_path}": measure(
                lambda: subprocess.run(
                    [on_path, str(program)], stdin=data.open("rb"), capture_output=True, check=True
                ),
                max(10, args.runs // 10),
            ),
            "sandboxed python3 -S": measure(
                lambda: box.run(
                    ["python3", "-S", "/prog/main.py"], limits=LIMITS, stdin=data, binds=binds
                ),
                args.runs,
            ),
            "sandboxed in-process": measure(
                lambda: box.run(
                    ["python3", "/prog/main.py"],
                    limits=LIMITS,
                    stdin=data,
                    binds=binds,
                    inprocess="/prog/main.py",
                ),
                args.runs,
            ),
        }
        with box.session(limits=LIMITS, binds=binds):
            results["session, python3 -S"] = measure(
                lambda: box.run(["python3", "-S", "/prog/main.py"], limits=LIMITS, stdin=data),
                args.runs,
            )
        with box.session(limits=LIMITS, binds=binds, inprocess=True):
            results["session, in-process"] = measure(
                lambda: box.run(
                    ["python3", "/prog/main.py"],
                    limits=LIMITS,
                    stdin=data,
                    inprocess="/prog/main.py",
                ),
                args.runs,
            )
        if box.python_matches():
            with box.session(limits=LIMITS, binds=binds, inprocess=True, lean=True):
                stdin = os.memfd_create("stdin")
                os.write(stdin, data.read_bytes())

                def lean_run() -> object:
                    os.lseek(stdin, 0, os.SEEK_SET)
                    argv = ["python3", "-S", "/prog/main.py"]
                    return box.run_lean(argv, limits=LIMITS, stdin=stdin, inprocess=argv[2])

                if box.lean_open:
                    results["lean session (the grader's path)"] = measure(lean_run, args.runs)
                os.close(stdin)
        isolation = box.isolation
        compiled = compiled_runs(box, work, data, args.runs)
    report(f"per-test wall time, {args.runs} runs each (isolation: {isolation})", results)
    if compiled:
        report("a compiled C program (static), exec'd", compiled)
    shutil.rmtree(work)


def report(title: str, results: dict[str, list[float]]) -> None:
    base = statistics.median(next(iter(results.values())))
    print(title)
    print(f"{'mode':48} {'median':>9} {'p90':>9} {'speed vs baseline':>18}")
    for name, times in results.items():
        med = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(f"{name:48} {med * 1000:8.2f}ms {p90 * 1000:8.2f}ms {base / med:17.2f}x")


def compiled_runs(box: Sandbox, work: Path, data: Path, runs: int) -> dict[str, list[float]]:
    """The C program's runs (none without a C compiler)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    binary = work / "sum"
    (work / "sum.c").write_text(C_PROGRAM)
    if compiler is None or subprocess.run([compiler, "-O2", "-static", "-o", str(binary),
                                           str(work / "sum.c")]).returncode:  # fmt: skip
        return {}
    stdin = os.open(data, os.O_RDONLY)

    def spawned() -> None:
        os.lseek(stdin, 0, os.SEEK_SET)
        pid = os.posix_spawn(str(binary), [str(binary)], {}, file_actions=[
            (os.POSIX_SPAWN_DUP2, stdin, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])  # fmt: skip
        os.waitpid(pid, 0)

    def baseline() -> object:
        return subprocess.run([binary], stdin=data.open("rb"), capture_output=True, check=True)

    found = {
        "baseline: subprocess.run": measure(baseline, runs),
        "floor: posix_spawn and wait, no sandbox": measure(spawned, runs),
    }
    os.close(stdin)
    memory = os.memfd_create("stdin")
    os.write(memory, data.read_bytes())

    def lean_run() -> object:
        os.lseek(memory, 0, os.SEEK_SET)
        return box.run_lean(["/prog/sum"], limits=LIMITS, stdin=memory)

    for forked in (False, True):
        with box.session(limits=LIMITS, binds=[Bind(str(work), "/prog")], lean=True,
                         forked=forked):  # fmt: skip
            if box.lean_open:
                kind = "forked" if forked else "fresh"
                found[f"lean session, {kind} init (held jails)"] = measure(lean_run, runs)
    os.close(memory)
    return found


if __name__ == "__main__":
    main()
