"""Grading C++ completions as a trainer does, start-up included: the real ``gradecode
--languages cpp`` on N completions that start with ``#include <bits/stdc++.h>`` (as most
model-written and contest C++ does; each differs, so each compiles), with the header's
precompiled state (judge/pch.py, made before the timed runs) and without it (a cache
where it cannot be made), against the baseline a team would write: ``g++ -O2`` per
completion, then a fresh run per test, stop at the first failure, one thread per core, no
sandbox. Alternating rounds; all three must give the same rewards. The floor: the
compilation from the precompiled state and the bare runs, outside any sandbox, per
completion, on all cores.

Usage: python bench/cpp_grading.py [--count 40] [--rounds K] [--jobs J]"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from batch import Spec, make_dataset  # (bench/: the directory of this script)
from benchkit import Item, gradecode, passes, timed_map, write_completions

from problemtools_py.cpus import usable_cores

BIN = Path(sys.executable).parent
HEAD = "#include <bits/stdc++.h>\nusing namespace std;\n// completion {index}\n"
# statement, right body, wrong body, test maker
SPEC: list[Spec] = [
    ("Print the sum of two numbers.",
     "int main() { long long a, b; cin >> a >> b; cout << a + b << endl; }\n",
     "int main() { long long a, b; cin >> a >> b; cout << a - b << endl; }\n",
     lambda i: (f"{i} {i + 3}\n", f"{2 * i + 3}\n")),
    ("Print the largest of three numbers.",
     "int main() { vector<long long> v(3); for (auto& x : v) cin >> x;\n"
     "  cout << *max_element(v.begin(), v.end()) << endl; }\n",
     "int main() { vector<long long> v(3); for (auto& x : v) cin >> x;\n"
     "  cout << *min_element(v.begin(), v.end()) << endl; }\n",
     lambda i: (f"{i} {i + 7} 2\n", f"{i + 7}\n")),
    ("Print the input backwards.",
     "int main() { string s; getline(cin, s); reverse(s.begin(), s.end()); cout << s << endl; }\n",
     "int main() { string s; getline(cin, s); cout << s << endl; }\n",
     lambda i: (f"ab{i}c\n", f"c{str(i)[::-1]}ba\n")),
]  # fmt: skip


def completions(problems: list[tuple[str, str, str, list[tuple[str, str]]]], count: int,
                salt: int) -> list[Item]:  # fmt: skip
    """75 % right, 25 % wrong; every program different (``salt``: per round)."""
    pick = random.Random(count)
    out = []
    for index in range(count):
        pid, right, wrong, cases = pick.choice(problems)
        body = right if pick.random() < 0.75 else wrong
        out.append((pid, HEAD.format(index=f"{salt}-{index}") + body, cases))
    return out


def plain(code: str, cases: list[tuple[str, str]], work: Path, pch: Path | None) -> float:
    directory = Path(tempfile.mkdtemp(dir=work))
    (directory / "main.cpp").write_text(code)
    include = ["-I", str(pch)] if pch is not None else []
    subprocess.run(["g++", *include, "-x", "c++", "-O2", "-std=gnu++20", "-pipe", "-o",
                    str(directory / "a.out"), str(directory / "main.cpp")], check=True,
                   capture_output=True)  # fmt: skip
    return passes([str(directory / "a.out")], cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=usable_cores())
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ptpy-cppbench-"))
    problems = make_dataset(work / "ds", SPEC)
    ready, blocked = work / "cache-ready", work / "cache-none"
    (blocked / "problemtools_py").mkdir(parents=True)
    (blocked / "problemtools_py" / "pch").write_text("")  # (a file: no state can be made)
    start = time.perf_counter()
    first = write_completions(work / "first.jsonl", completions(problems, 1, -1), "cpp")
    gradecode(work / "ds", first, args.jobs, "--languages", "cpp", "-q", cache=ready)
    made = time.perf_counter() - start
    (state,) = (ready / "problemtools_py" / "pch").glob("*/bits/stdc++.h.gch")
    names = ("gradecode, state", "gradecode, no state", "g++ per completion", "floor")
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(args.rounds):
        items = completions(problems, args.count, round_)
        lines = write_completions(work / "completions.jsonl", items, "cpp")
        for name in names if round_ % 2 == 0 else names[::-1]:
            if name.startswith("gradecode"):
                cache = ready if name == names[0] else blocked
                seconds, rows = gradecode(work / "ds", lines, args.jobs, "--languages", "cpp",
                                          "-q", cache=cache)  # fmt: skip
                rewards = [r["reward"] for r in rows]
            else:
                pch = state.parent.parent if name == "floor" else None
                seconds, rewards = timed_map(
                    lambda item, pch=pch: plain(item[1], item[2], work, pch), items, args.jobs
                )
            times[name].append(seconds)
            if name == names[0]:
                expected = rewards
            assert rewards == expected, f"{name} disagrees"
    print(f"{args.count} C++ completions with <bits/stdc++.h>, {args.jobs} cores, "
          f"{args.rounds} alternating rounds (median, range); the state made once "
          f"({made:.1f} s with a first completion, {state.stat().st_size >> 20} MiB)")  # fmt: skip
    base = statistics.median(times[names[2]])
    for name in names:
        median = statistics.median(times[name])
        print(f"{name:>22}: {median:6.2f} s ({min(times[name]):.2f}-{max(times[name]):.2f}), "
              f"{args.count / median:5.1f} completions/s, {base / median:4.1f}x the baseline")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
