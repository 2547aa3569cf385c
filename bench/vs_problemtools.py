"""verifyproblem against Kattis problemtools' verifyproblem, side by side, on every package
in sample_problems/: wall time of each (ours with a cold and a warm cache), the ratio, and
every submission whose verdict the two tools disagree on. Beside them the floor of our
cold run, which counts the work (issue 61): the CPU time the programs themselves took
(compilers, validators, submissions: the report's runs_cpu_seconds) spread over the
cores, or the longest chain that cannot overlap (a submission's cases one after the
other, an expected TLE to its limit) when that is longer; ours / floor and
problemtools / floor.

A 2025-09 (or 2023-07) package, which problemtools cannot read, is given to it as our
``problem2zip --format legacy --force`` makes it (the same data and submissions); where
legacy cannot say the package (problemtools finds errors in the copy, as in a multi-pass
problem) it is left out of the totals.

Both judge the same work: the parts config, validators, graders, data and submissions
(statement rendering is left out of both: bench/statements.py compares it, and
problemtools' needs tidy, ghostscript and lualatex). problemtools rejects the seed's
problem.yaml keys (``validator``, ``languages``, ``grader``, ``source-url``) and does not
read ``@EXPECTED_RESULT@`` tags, so its copy of such a package gets the later legacy keys it
knows (``validator_flags``, ``source_url``) and the tagged submissions moved into the
directories of their tags; the data, validators and programs are the same. problemtools is
installed from PyPI into a throwaway virtual environment unless --problemtools names its
verifyproblem. Debian has no pypy3 and JDK 17 rejects "-source 21", so a languages.yaml
beside problemtools' copies points its python3 at CPython and drops that flag (its
documented override). Ours runs with its own defaults (Python 3 as ``python3 -S``, in the
sandbox server's interpreter): given that file, it would run ``python3 file.py`` as the
file says, afresh, with the site module.

Ours is timed three ways per package: "first", the first use of the tool on the
machine (an empty cache: it also makes its C run loop, but no precompiled header or
javac archive, which a verification makes only where the cache outlives it);
"cold" (the median of --cold runs, 3 by default), the first verification of the package
by a tool used before (the cache holds the tool's own files, nothing of the package: the
ratios are of this one); "warm", the same package again (everything cached).

The samples are small (2-12 test cases); real packages have a hundred or more. So the
bench adds ``divisormany``: divisor with --many (default 120) more secret cases made
here (products of two random numbers, the smallest divisor as answer), judged by its
custom output validator: the per-run cost of each tool; and ``maxsub``, the contest-sized
package of bench/mixedpackage.py (61 cases of up to 100,000 numbers; Python, C++ and Java
accepted, a TLE, an RTE and a WA submission).

Usage: python bench/vs_problemtools.py [--problemtools PATH] [--jobs N] [--many N] [--cold K]
       [PROBLEM...] [--extra DIR...]  (PROBLEM: of sample_problems/ and the two above)"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import NamedTuple

import mixedpackage

from problemtools_py.cpus import usable_cores

REPO = Path(__file__).resolve().parent.parent
PARTS = ["config", "validators", "graders", "data", "submissions"]
LANGUAGES_YAML = """python3:
    name: 'Python 3'
    compile: '/usr/bin/python3 -m py_compile {files}'
    run: '/usr/bin/python3 "{mainfile}"'
java:
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
"""
THEIR_LINE = re.compile(
    r"^\s+(\S+) \(.*?\) (?:OK|FAIL|[A-Z ]+): ?(AC|WA|TLE|RTE|MLE|OLE|CE|JE|PAC)\b"
)
OUR_VERIFY = [sys.executable, "-m", "problemtools_py"]
BIN = Path(sys.executable).parent


SEED_KEYS = {"validator": "validator_flags", "source-url": "source_url"}
SEED_ONLY = ("languages", "grader", "libraries")


def translate_seed_keys(problem_yaml: Path) -> bool:
    """Rewrite the seed's keys into ones problemtools accepts; True when anything changed."""
    lines = problem_yaml.read_text().splitlines(keepends=True)
    out = []
    for line in lines:
        key = (
            line.split(":", 1)[0].strip() if ":" in line and not line.startswith((" ", "#")) else ""
        )
        if key in SEED_ONLY:
            continue
        if key in SEED_KEYS:
            line = SEED_KEYS[key] + line[len(key) :]
        out.append(line)
    problem_yaml.write_text("".join(out))
    return out != lines


TAG = re.compile(r"@EXPECTED_RESULTS?@:\s*([A-Za-z_-]+)")
TAG_DIRS = {
    "AC": "accepted",
    "WA": "wrong_answer",
    "WRONG-ANSWER": "wrong_answer",
    "TLE": "time_limit_exceeded",
    "TIMELIMIT": "time_limit_exceeded",
    "RTE": "run_time_error",
    "RUN-ERROR": "run_time_error",
    # The seed's RE is "rejected" (fails somehow), which no legacy directory says: put in
    # run_time_error, problemtools reports an error when its first failure is another
    # verdict (average's nodivide.py: WA before its crash), ours does not.
    "RE": "run_time_error",
}


def tags_to_directories(problem: Path) -> bool:
    """Move the seed's tagged submissions (directly in submissions/) into the directory of
    their tag, which is how problemtools reads expectations; True when any moved."""
    moved = False
    for path in sorted((problem / "submissions").glob("*")):
        if not path.is_file() or path.suffix in (".yaml", ".yml"):
            continue
        match = TAG.search(path.read_text(errors="replace"))
        target = TAG_DIRS.get(match.group(1).upper() if match else "AC", "accepted")
        (problem / "submissions" / target).mkdir(exist_ok=True)
        path.rename(problem / "submissions" / target / path.name)
        moved = True
    return moved


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


class Ours(NamedTuple):
    seconds: float
    verdicts: dict[str, str]
    errors: int
    burn: float  # the longest chain of runs: one submission's cases, in order
    cpu: float  # user + system seconds of the whole run (every process)
    runs_cpu: float  # the programs' own CPU (compilers, validators, submissions): the work

    def floor(self, cores: int) -> float:
        """No scheduling beats this: the programs' CPU spread over the cores, or the
        longest chain that cannot overlap, whichever is longer (issue 61)."""
        return max(self.runs_cpu / max(1, cores), self.burn)


def our_run(problem: Path, jobs: int, cache: Path) -> Ours:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    cmd = [*OUR_VERIFY, "--json", "-j", str(jobs), "-p", ",".join(PARTS), str(problem)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds, out = timed(cmd, problem.parent, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = json.loads(out[: out.rindex("}") + 1])["problems"][0]
    verdicts = {
        row["submission"].removeprefix("submissions/"): row["verdict"]
        for row in report["submissions"]
    }
    burn = max((sum(case["cpu"] for case in row.get("cases", {}).values())
                for row in report["submissions"]), default=0.0)  # fmt: skip
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Ours(seconds, verdicts, report["errors"], burn, cpu, report["runs_cpu_seconds"])


def cold_runs(problem: Path, jobs: int, machine: Path, base: Path, count: int
              ) -> tuple[Ours, Path]:  # fmt: skip
    """The median of ``count`` cold runs (each from a fresh copy of the machine cache: a
    single run moves 10-20% from one minute to the next), and a cache one of them left."""
    runs = []
    for index in range(max(1, count)):
        cache = base / f"cache-{problem.name}-{index}"
        shutil.copytree(machine, cache)
        runs.append(our_run(problem, jobs, cache))
    return sorted(runs, key=lambda run: run.seconds)[len(runs) // 2], cache


def legacy_copy(problem: Path, into: Path) -> Path | None:
    """problemtools' copy of a 2025-09 package: our legacy downgrade, unpacked (None when
    the downgrade refuses it)."""
    zipped = into / f"{problem.name}.zip"
    done = subprocess.run([str(BIN / "problem2zip"), str(problem), "-o", str(zipped),
                           "--format", "legacy", "--no-pdf", "--force", "-q"], capture_output=True,
                          check=False)  # fmt: skip
    if done.returncode != 0:
        return None
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(into / "legacy")
    zipped.unlink()
    (into / "legacy" / "languages.yaml").write_text(LANGUAGES_YAML)  # (as for their others)
    found = into / "legacy" / problem.name
    return found if (found / "problem.yaml").is_file() else None


def many_cases(source: Path, into: Path, count: int) -> None:
    """A copy of divisor with ``count`` more secret cases (the same ones on every run)."""
    shutil.copytree(source, into)
    rng = random.Random(20261201)
    for index in range(count):
        n = rng.randint(2, 3000) * rng.randint(2, 3000)
        smallest = next(d for d in range(2, n + 1) if n % d == 0)
        (into / "data/secret" / f"m{index:03}.in").write_text(f"{n}\n")
        (into / "data/secret" / f"m{index:03}.ans").write_text(f"{smallest}\n")


# What verifying a package leaves in the cache (its builds, verdicts, and the schema
# results of its YAML files, kept by content); the rest is the tool's own, made once per
# machine (its C run loop, javac's class-data archive, the sandbox interpreter's probe).
PACKAGE_CACHES = ("builds", "verdicts.sqlite3", "verdicts.sqlite3-wal", "verdicts.sqlite3-shm",
                  "schema")


def machine_cache(work: Path, names: list[str], jobs: int, into: Path) -> Path:
    """A cache as any earlier use of the tool leaves it, holding nothing of any package:
    every package verified once, then what it left of them dropped (PACKAGE_CACHES). (Its
    stamp first: the tool has been used here, so the first package's verification makes
    the precompiled headers and javac's archive it needs, as every later one does.)"""
    (into / "problemtools_py").mkdir(parents=True, exist_ok=True)
    (into / "problemtools_py" / "used").touch()
    for name in names:
        our_run(work / name, jobs, into)
    for kind in PACKAGE_CACHES:
        path = into / "problemtools_py" / kind
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        path.unlink(missing_ok=True)
    return into


def modern(problem: Path) -> bool:
    text = (problem / "problem.yaml").read_text()
    return re.search(r"^problem_format_version:\s*['\"]?20(23|25)", text, re.M) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problemtools", type=Path, help="its verifyproblem executable")
    parser.add_argument("--jobs", type=int, default=usable_cores())
    parser.add_argument("--many", type=int, default=120, help="extra cases of divisormany")
    parser.add_argument("--cold", type=int, default=3, help="cold runs of ours (the median)")
    parser.add_argument("--extra", type=Path, nargs="*", default=[],
                        help="packages from elsewhere (public ones: see bench/README.md)")
    parser.add_argument("problems", nargs="*")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="ptpy-vs-"))
    theirs = args.problemtools or install_problemtools(base)
    work = base / "problems"
    theirs_work = base / "problems-for-problemtools"
    shutil.copytree(REPO / "sample_problems", work)
    shutil.copytree(REPO / "sample_problems", theirs_work)
    (theirs_work / "languages.yaml").write_text(LANGUAGES_YAML)  # (theirs only: see above)
    for where in (work, theirs_work):
        many_cases(where / "divisor", where / "divisormany", args.many)
        mixedpackage.write(where / "maxsub")
        for extra in args.extra:
            shutil.copytree(extra, where / extra.name, symlinks=True)
    translated = [
        p.parent.name
        for p in theirs_work.glob("*/problem.yaml")
        if translate_seed_keys(p) | tags_to_directories(p.parent)
    ]
    names = args.problems + [extra.name for extra in args.extra] or sorted(
        p.name for p in work.iterdir() if (p / "problem.yaml").is_file()
    )
    machine = machine_cache(work, names, args.jobs, base / "cache-machine")
    print(f"{'problem':10} {'problemtools':>12} {'first':>6} {'ours cold':>9} {'warm':>6} "
          f"{'speed-up':>8} {'floor':>7} {'x floor':>7} {'theirs/fl':>9}  "
          "errors (theirs/ours)")  # fmt: skip
    total_theirs = total_ours = total_first = 0.0
    disagreements = []
    for name in names:
        theirs_dir: Path | None = theirs_work / name
        if modern(work / name):
            theirs_dir = legacy_copy(work / name, base / f"legacy-{name}")
        if theirs_dir is not None:
            their_time, their_out = timed([str(theirs), str(theirs_dir), "-p", *PARTS], base)
        first = our_run(work / name, args.jobs, base / f"cache-first-{name}").seconds
        ours, cache = cold_runs(work / name, args.jobs, machine, base, args.cold)
        warm = our_run(work / name, args.jobs, cache).seconds
        floor = max(ours.floor(args.jobs), 0.05)
        shown = f"{first:5.2f}s {ours.seconds:8.2f}s {warm:5.2f}s"
        shown += f" {'':>8}" if theirs_dir is None else f" {their_time / ours.seconds:7.1f}x"
        shown += f" {floor:6.2f}s {ours.seconds / floor:6.2f}x"
        shown += f" {'':>9}" if theirs_dir is None else f" {their_time / floor:8.2f}x"
        if theirs_dir is None:
            print(f"{name:10} {'(refused)':>12} {shown}  - / {ours.errors}")
            continue
        errors = re.search(r"tested: (\d+) errors?", their_out)
        theirs_errors = errors.group(1) if errors else "?"
        if modern(work / name) and theirs_errors != "0":  # legacy cannot say it (multi-pass)
            shown = shown.replace(f"{their_time / ours.seconds:7.1f}x", f"{'-':>8}")
            print(f"{name:10} {'(no legacy)':>12} {shown}  {theirs_errors} / {ours.errors}")
            continue
        total_theirs += their_time
        total_ours += ours.seconds
        total_first += first
        print(f"{name:10} {their_time:11.2f}s {shown}  {theirs_errors} / {ours.errors}")
        ours_by_file = {k.rsplit("/", 1)[-1]: v for k, v in ours.verdicts.items()}
        for sub, verdict in their_verdicts(their_out).items():
            mine = ours.verdicts.get(sub, ours_by_file.get(sub.rsplit("/", 1)[-1]))
            if mine is not None and mine != verdict and not (verdict == "PAC" and mine == "AC"):
                disagreements.append(f"{name}/{sub}: problemtools {verdict}, ours {mine}")
    print(f"{'total':10} {total_theirs:11.2f}s {total_first:5.2f}s {total_ours:8.2f}s {'':>6} "
          f"{total_theirs / max(total_ours, 1e-9):7.1f}x "
          f"(first: {total_theirs / max(total_first, 1e-9):.1f}x)")  # fmt: skip
    print("verdicts that differ:", *(disagreements or ["none"]), sep="\n  ")
    if translated:
        print(
            "seed keys and tagged submissions translated for problemtools in:",
            ", ".join(sorted(translated)),
        )
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
