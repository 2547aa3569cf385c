"""Our verifyproblem beside the reference tool of each package's version, on every package
under the given directories: Kattis problemtools for legacy packages, BAPCtools' ``bt run``
for 2023-07 and 2025-09 ones (both from PyPI, installed into throwaway virtual environments
unless --problemtools / --bt name them). Per package: the error counts of both, every
submission whose verdict differs, and the first messages of both side by side; then a
summary: packages where we agree, where we find errors the reference does not (stricter:
to be checked against the spec's text, listed), where it finds errors we do not, and our
internal errors.

A directory holding a ``.packages`` file (one relative path per line) stands for those
packages, else every directory below it with a problem.yaml and data/ or submissions/.
Each tool works on a copy of the package (bt writes into it). Verdicts: ours per row of
``--json``; problemtools' from its per-submission lines; bt's from its
``<submission>: <VERDICT> <time> @ <case>`` lines.

Usage: python bench/conformance.py DIR... [--jobs N] [--timeout S] [--limit N] [--json F]"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vs_problemtools import LANGUAGES_YAML, PARTS, their_verdicts

from problemtools_py.model.loader import format_of
from problemtools_py.model.problem import FormatVersion
from problemtools_py.yamlfile import load_yaml

OUR_VERIFY = [sys.executable, "-m", "problemtools_py"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
BT_LINE = re.compile(r"^(\S+?):\s+(AC|WA|TLE|RTE|MLE|OLE|CE|JE)\b")
# bt's line for a submission whose verdicts break its directory or submissions.yaml
# ("time_limit_exceeded/x.py: required: [TLE], got: [AC]"): an error, as ours is
BT_UNEXPECTED = re.compile(r"^\S+?:\s+(required|permitted)\b.*\bgot:")
TAIL = re.compile(r"(\d+) errors?, (\d+) warnings?")
# Both formats' texts count running out of memory or output as a run-time error, and
# neither reference tool tells them apart: compared as RTE.
SAME = {"MLE": "RTE", "OLE": "RTE"}
MISSING_TOOL = "could not find compiler"  # problemtools' error for a compiler not installed


class Side(NamedTuple):
    """One tool's view of one package."""

    tool: str
    errors: int
    verdicts: dict[str, str]
    messages: list[str]
    crashed: bool = False  # our exit 3, a reference's traceback or timeout


def packages_under(root: Path) -> list[Path]:
    listed = root / ".packages"
    if listed.is_file():
        return [root / line for line in listed.read_text().split() if line]
    found = [p.parent for p in root.rglob("problem.yaml")]
    return sorted(p for p in found if (p / "data").is_dir() or (p / "submissions").is_dir())


def version_of(package: Path) -> FormatVersion:
    return format_of(load_yaml(package / "problem.yaml", "problem.yaml"))[0]


# The reference tools run the packages' programs as they are, unsandboxed: every program
# of a public package is hostile, so they run as nobody (NOBODY), with no network, at most
# NPROC processes (a fork bomb among the corpus's submissions stops there), and whatever
# is left of them is killed when they end.
NOBODY = 65534
NPROC = 512
CONTAIN = ["unshare", "--net", "--", "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
           "--clear-groups", "--", "prlimit", f"--nproc={NPROC}", "--"]  # fmt: skip


def run(cmd: list[str], cwd: Path, timeout: float, contain: bool = False) -> tuple[int | None, str]:
    """``cmd``'s exit code (None: timed out) and output; ``contain``: as nobody (above)."""
    env = {**os.environ, "HOME": str(cwd), "XDG_CACHE_HOME": str(cwd / ".cache")}
    if contain:
        subprocess.run(["chown", "-R", f"{NOBODY}:{NOBODY}", str(cwd)], check=True)
        cmd = [*CONTAIN, *cmd]
    with subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          env=env, start_new_session=True) as proc:  # fmt: skip
        try:
            out, _ = proc.communicate(timeout=timeout)
            code: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            code, out = None, b"(timed out)"
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            if contain:  # (what left the process group too)
                subprocess.run(["pkill", "-9", "-u", str(NOBODY)], check=False)
            proc.wait()
    return code, ANSI.sub("", out.decode("utf-8", "replace"))


def own_traceback(out: str, package: str) -> bool:
    """Whether the tool itself crashed: a traceback through its own code (a traceback of a
    program it ran, printed in its report, is no crash of the tool)."""
    return re.search(rf'File "[^"]*/{package}/[^"]*", line \d+', out) is not None


def generated(package: Path) -> bool:
    """Whether the package's data is made by generators.yaml: bt run generates it first,
    so ours is given --generate."""
    return (package / "generators" / "generators.yaml").is_file()


def ours(package: Path, jobs: int, timeout: float) -> Side:
    made = ["--generate"] if generated(package) else []
    cmd = [*OUR_VERIFY, "--json", *made, "-j", str(jobs), "-p", ",".join(PARTS), str(package)]
    code, out = run(cmd, package.parent, timeout)
    if code is None:
        return Side("ours", -1, {}, ["(timed out)"], crashed=True)
    if code == 3 or "{" not in out:
        return Side("ours", -1, {}, [out.strip()[-400:]], crashed=True)
    report = json.loads(out[out.index("{") : out.rindex("}") + 1])["problems"][0]
    verdicts = {row["submission"].removeprefix("submissions/"): row["verdict"] or "-"
                for row in report["submissions"]}  # fmt: skip
    messages = [f"{f.get('path') or ''}: {f['message']}" for f in report["findings"]
                if f["severity"] == "error"]  # fmt: skip
    return Side("ours", report["errors"], verdicts, messages)


def problemtools(package: Path, binary: Path, timeout: float) -> Side:
    """(Debian has no pypy3 and JDK 17 rejects "-source 21": the languages.yaml beside its
    copy's directory points python3 at CPython and drops that flag: its documented
    override, read from a problem's parent directory.)"""
    (package.parent / "languages.yaml").write_text(LANGUAGES_YAML)
    code, out = run([str(binary), str(package), "-p", *PARTS], package.parent, timeout, True)
    found = TAIL.findall(out)
    crashed = code is None or not found or own_traceback(out, "problemtools")
    messages = [line.strip() for line in out.splitlines() if line.lstrip().startswith("ERROR")]
    machine = [m for m in messages if MISSING_TOOL in m]  # (this machine's, as ours skips)
    errors = int(found[-1][0]) - len(machine) if found else -1
    kept = [m for m in messages if m not in machine]
    return Side("problemtools", errors, their_verdicts(out), kept, crashed)


def bapctools(package: Path, binary: Path, timeout: float) -> Side:
    skip = [] if generated(package) else ["-G"]  # (it generates the data first, as ours)
    code, out = run([str(binary), "run", "--problem", package.name, "-B", *skip],
                    package.parent, timeout, True)  # fmt: skip
    verdicts: dict[str, str] = {}
    for line in out.splitlines():
        match = BT_LINE.match(line.strip())
        if match:
            verdicts[match.group(1)] = match.group(2)
    lines = [line.strip() for line in out.splitlines()]
    messages = [line for line in lines if line.startswith("ERROR") or BT_UNEXPECTED.match(line)]
    crashed = code is None or own_traceback(out, "bapctools")
    return Side("bt", len(messages), verdicts, messages, crashed)


def copy_package(package: Path, dest: Path) -> Path:
    """A copy of ``package`` as its repository's checkout shows it: symlinks inside the
    package kept, those to files elsewhere in the repository (BAPCtools' validation.h,
    DOMjudge's problem.pdf) replaced by a copy of what they name."""
    shutil.copytree(package, dest, symlinks=True)
    for link in [p for p in dest.rglob("*") if p.is_symlink()]:
        target = (package / link.relative_to(dest)).resolve()
        if not target.is_relative_to(package.resolve()) and target.exists():
            link.unlink()
            copy = shutil.copytree if target.is_dir() else shutil.copyfile
            copy(target, link)
    return dest


def compare(package: Path, args: argparse.Namespace, tools: dict[str, Path]) -> dict[str, Any]:
    modern = version_of(package) is not FormatVersion.LEGACY
    with tempfile.TemporaryDirectory(prefix="conformance-") as tmp:
        os.chmod(tmp, 0o755)  # (the reference's user reaches its copy through it)
        mine = copy_package(package, Path(tmp) / "ours" / package.name)
        theirs = copy_package(package, Path(tmp) / "ref" / package.name)
        us = ours(mine, args.jobs, args.timeout)
        ref = (bapctools(theirs, tools["bt"], args.timeout) if modern
               else problemtools(theirs, tools["problemtools"], args.timeout))  # fmt: skip
    differ = {s: (us.verdicts[s], ref.verdicts[s])
              for s in sorted(set(us.verdicts) & set(ref.verdicts))
              if SAME.get(us.verdicts[s], us.verdicts[s])
              != SAME.get(ref.verdicts[s], ref.verdicts[s])}  # fmt: skip
    if us.crashed:
        kind = "ours timed out" if us.messages == ["(timed out)"] else "our internal error"
    elif ref.crashed:
        kind = "reference failed"
    elif differ:
        kind = "verdicts differ"
    elif (us.errors > 0) == (ref.errors > 0):
        kind = "agree"
    else:
        kind = "we find errors" if us.errors > 0 else "reference finds errors"
    return {"package": str(package), "version": "modern" if modern else "legacy",
            "reference": ref.tool, "kind": kind, "our_errors": us.errors,
            "their_errors": ref.errors, "verdicts_differ": differ,
            "ours": us.messages[:5], "theirs": ref.messages[:5]}  # fmt: skip


def show(row: dict[str, Any]) -> None:
    print(f"{row['package']} [{row['version']}, {row['reference']}]: {row['kind']} "
          f"(errors: ours {row['our_errors']}, theirs {row['their_errors']})")  # fmt: skip
    for sub, (a, b) in row["verdicts_differ"].items():
        print(f"    {sub}: ours {a}, theirs {b}")
    if row["kind"] != "agree":
        for mine, theirs in zip(row["ours"] + [""] * 5, row["theirs"] + [""] * 5, strict=False):
            if mine or theirs:
                print(f"    ours: {mine[:150]}\n    ref:  {theirs[:150]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per tool run")
    parser.add_argument("--limit", type=int, default=0, help="at most N packages per directory")
    parser.add_argument("--problemtools", type=Path, help="problemtools' verifyproblem")
    parser.add_argument("--bt", type=Path, help="BAPCtools' bt")
    parser.add_argument("--json", type=Path, help="every row, as JSON")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="conformance-tools-"))
    tools = {"problemtools": args.problemtools or install(work, "problemtools", "verifyproblem"),
             "bt": args.bt or install(work, "bapctools", "bt")}  # fmt: skip
    rows = []
    for root in args.dirs:
        found = packages_under(root)
        for package in found[: args.limit or len(found)]:
            rows.append(compare(package, args, tools))
            show(rows[-1])
            sys.stdout.flush()
            if args.json:  # (after each package: a long run stopped keeps what it found)
                args.json.write_text(json.dumps(rows, indent=1) + "\n")
    kinds: dict[str, int] = {}
    for row in rows:
        kinds[row["kind"]] = kinds.get(row["kind"], 0) + 1
    print(f"\n{len(rows)} packages: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))


# The reference tools' interpreter: the system's, which the unprivileged user they run as
# can reach (an interpreter under /root cannot be).
REFERENCE_PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


def install(base: Path, package: str, command: str) -> Path:
    """``package`` from PyPI into a virtual environment of its own; its ``command``."""
    venv = base / f"{package}-venv"
    subprocess.run([REFERENCE_PYTHON, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", package], check=True)
    os.chmod(base, 0o755)
    return venv / "bin" / command


if __name__ == "__main__":
    main()
