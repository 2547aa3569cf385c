"""verifyproblem against Kattis problemtools' verifyproblem, side by side, on every package
in sample_problems/: wall time of each (ours with a cold and a warm cache), the ratio, and
every submission whose verdict the two tools disagree on.

Both judge the same work: the parts config, validators, graders, data and submissions
(statement rendering is left out of both: bench/statements.py compares it, and
problemtools' needs tidy, ghostscript and lualatex). problemtools rejects the seed's
problem.yaml keys (``validator``, ``languages``, ``grader``, ``source-url``) and does not
read ``@EXPECTED_RESULT@`` tags, so its copy of such a package gets the later legacy keys it
knows (``validator_flags``, ``source_url``) and the tagged submissions moved into the
directories of their tags; the data, validators and programs are the same. problemtools is
installed from PyPI into a throwaway virtual environment unless --problemtools names its
verifyproblem. Debian has no pypy3 and JDK 17 rejects "-source 21", so a languages.yaml
beside the copied problems points its python3 at CPython and drops that flag (its
documented override).

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


def our_run(problem: Path, jobs: int, cache: Path) -> tuple[float, dict[str, str], int]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    cmd = [*OUR_VERIFY, "--json", "-j", str(jobs), "-p", ",".join(PARTS), str(problem)]
    seconds, out = timed(cmd, problem.parent, env)
    report = json.loads(out[: out.rindex("}") + 1])["problems"][0]
    verdicts = {
        row["submission"].removeprefix("submissions/"): row["verdict"]
        for row in report["submissions"]
    }
    return seconds, verdicts, report["errors"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problemtools", type=Path, help="its verifyproblem executable")
    parser.add_argument("--jobs", type=int, default=usable_cores())
    parser.add_argument("problems", nargs="*")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="ptpy-vs-"))
    theirs = args.problemtools or install_problemtools(base)
    work = base / "problems"
    theirs_work = base / "problems-for-problemtools"
    shutil.copytree(REPO / "sample_problems", work)
    shutil.copytree(REPO / "sample_problems", theirs_work)
    (work / "languages.yaml").write_text(LANGUAGES_YAML)
    (theirs_work / "languages.yaml").write_text(LANGUAGES_YAML)
    translated = [
        p.parent.name
        for p in theirs_work.glob("*/problem.yaml")
        if translate_seed_keys(p) | tags_to_directories(p.parent)
    ]
    names = args.problems or sorted(
        p.name for p in work.iterdir() if (p / "problem.yaml").is_file()
    )
    print(
        f"{'problem':10} {'problemtools':>13} {'ours cold':>10} {'ours warm':>10} {'speed-up':>9}"
        f"  {'errors (theirs/ours)':>20}"
    )
    total_theirs = total_ours = 0.0
    disagreements = []
    for name in names:
        their_time, their_out = timed([str(theirs), name, "-p", *PARTS], theirs_work)
        cache = base / f"cache-{name}"
        cold, verdicts, our_errors = our_run(work / name, args.jobs, cache)
        warm, _, _ = our_run(work / name, args.jobs, cache)
        total_theirs += their_time
        total_ours += cold
        errors = re.search(r"tested: (\d+) errors?", their_out)
        theirs_errors = errors.group(1) if errors else "?"
        print(
            f"{name:10} {their_time:12.2f}s {cold:9.2f}s {warm:9.2f}s {their_time / cold:8.1f}x"
            f"  {theirs_errors:>9} / {our_errors}"
        )
        ours_by_file = {k.rsplit("/", 1)[-1]: v for k, v in verdicts.items()}
        for sub, verdict in their_verdicts(their_out).items():
            ours = verdicts.get(sub, ours_by_file.get(sub.rsplit("/", 1)[-1]))
            if ours is not None and ours != verdict and not (verdict == "PAC" and ours == "AC"):
                disagreements.append(f"{name}/{sub}: problemtools {verdict}, ours {ours}")
    print(
        f"{'total':10} {total_theirs:12.2f}s {total_ours:9.2f}s {'':>10} "
        f"{total_theirs / total_ours:8.1f}x"
    )
    print("verdicts that differ:", *(disagreements or ["none"]), sep="\n  ")
    if translated:
        print(
            "seed keys and tagged submissions translated for problemtools in:",
            ", ".join(sorted(translated)),
        )
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
