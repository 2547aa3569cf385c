"""verifyproblem against Kattis problemtools' verifyproblem, side by side, on every package
in sample_problems/: wall time of each (ours with a cold and a warm cache), the ratio, and
every submission whose verdict the two tools disagree on.

Both judge the same work: the parts config, validators, graders, data and submissions
(problemtools_py does not render statements in verifyproblem yet, so that part is left out
of both). problemtools is installed from PyPI into a throwaway virtual environment unless
--problemtools names its verifyproblem. Debian has no pypy3 and JDK 17 rejects
"-source 21", so a languages.yaml beside the copied problems points its python3 at
CPython and drops that flag (its documented override).

Usage: python bench/vs_problemtools.py [--problemtools PATH] [--jobs N] [PROBLEM...]"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PARTS = ["config", "validators", "graders", "data", "submissions"]
LANGUAGES_YAML = """python3:
    name: 'Python 3'
    compile: '/usr/bin/python3 -m py_compile {files}'
    run: '/usr/bin/python3 "{mainfile}"'
java:
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
"""
THEIR_LINE = re.compile(r"^\s+(\S+) \(.*?\) (?:OK|FAIL|[A-Z ]+): ?(AC|WA|TLE|RTE|MLE|OLE|CE|JE|PAC)\b")
OUR_VERIFY = [sys.executable, "-m", "problemtools_py"]


def install_problemtools(base: Path) -> Path:
    venv = base / "problemtools-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "problemtools"], check=True)
    return venv / "bin" / "verifyproblem"


def timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, check=False)
    return time.perf_counter() - start, proc.stdout + proc.stderr


def their_verdicts(output: str) -> dict[str, str]:
    found = {}
    for line in output.splitlines():
        match = THEIR_LINE.match(line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def our_run(problem: Path, jobs: int, cache: Path) -> tuple[float, dict[str, str], int]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    cmd = [*OUR_VERIFY, "--json", "-j", str(jobs), "-p", ",".join(PARTS), str(problem)]
    seconds, out = timed(cmd, problem.parent, env)
    report = json.loads(out[: out.rindex("}") + 1])["problems"][0]
    verdicts = {row["submission"].removeprefix("submissions/"): row["verdict"]
                for row in report["submissions"]}
    return seconds, verdicts, report["errors"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problemtools", type=Path, help="its verifyproblem executable")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("problems", nargs="*")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="ptpy-vs-"))
    theirs = args.problemtools or install_problemtools(base)
    work = base / "problems"
    shutil.copytree(REPO / "sample_problems", work)
    (work / "languages.yaml").write_text(LANGUAGES_YAML)
    names = args.problems or sorted(p.name for p in work.iterdir() if (p / "problem.yaml").is_file())
    print(f"{'problem':10} {'problemtools':>13} {'ours cold':>10} {'ours warm':>10} {'speed-up':>9}"
          f"  {'errors (theirs/ours)':>20}")
    total_theirs = total_ours = 0.0
    disagreements = []
    for name in names:
        their_time, their_out = timed([str(theirs), name, "-p", *PARTS], work)
        cache = base / f"cache-{name}"
        cold, verdicts, our_errors = our_run(work / name, args.jobs, cache)
        warm, _, _ = our_run(work / name, args.jobs, cache)
        total_theirs += their_time
        total_ours += cold
        errors = re.search(r"tested: (\d+) errors?", their_out)
        theirs_errors = errors.group(1) if errors else "?"
        print(f"{name:10} {their_time:12.2f}s {cold:9.2f}s {warm:9.2f}s {their_time / cold:8.1f}x"
              f"  {theirs_errors:>9} / {our_errors}")
        for sub, verdict in their_verdicts(their_out).items():
            ours = verdicts.get(sub)
            if ours is not None and ours != verdict and not (verdict == "PAC" and ours == "AC"):
                disagreements.append(f"{name}/{sub}: problemtools {verdict}, ours {ours}")
    print(f"{'total':10} {total_theirs:12.2f}s {total_ours:9.2f}s {'':>10} "
          f"{total_theirs / total_ours:8.1f}x")
    print("verdicts that differ:", *(disagreements or ["none"]), sep="\n  ")
    print("(a problem problemtools rejects before judging, such as one written with the seed's "
          "keys, makes its time meaningless; see its errors column)")
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
