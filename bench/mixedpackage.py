"""A contest-sized legacy package written for measuring (issue 61's "mixed" package):
``maxsub``, the largest sum of a non-empty run of consecutive numbers, with 61 test cases
(one sample, 60 secret: 20 small, 20 of thousands of numbers, 20 of 100,000) and the
submissions a contest has: accepted in Python, C++ and Java, a quadratic Python one that
exceeds the time limit, a C++ one that crashes past a fixed bound, and a C++ one whose
32-bit sum overflows. An input validator in Python checks the format. The same files
every run (a fixed seed), so two tools and two trees judge the same work.

Usage as a module: ``write(directory)``; as a script: ``python bench/mixedpackage.py DIR``."""

from __future__ import annotations

import random
import sys
from pathlib import Path

PROBLEM_YAML = """name: Largest Sum
author: problemtools_py bench
source: problemtools_py bench
license: public domain
limits:
  time_multiplier: 5
  time_safety_margin: 2
"""
STATEMENT = r"""\problemname{Largest Sum}
Given $n$ integers, print the largest sum of a non-empty run of consecutive ones.
\section*{Input}
A line with $n$ ($1 \le n \le 100\,000$), then a line of $n$ integers $a_i$
($|a_i| \le 10^9$).
\section*{Output}
The largest sum.
"""
VALIDATOR = """import re, sys
lines = sys.stdin.buffer.read().split(b"\\n")
ok = len(lines) == 3 and lines[2] == b"" and re.fullmatch(rb"[1-9][0-9]*", lines[0])
if ok:
    n = int(lines[0])
    ok = 1 <= n <= 100000 and re.fullmatch(rb"-?[0-9]+( -?[0-9]+)*", lines[1]) is not None
    numbers = lines[1].split() if ok else []
    ok = ok and len(numbers) == n and all(abs(int(x)) <= 10**9 for x in numbers)
    ok = ok and all(x == b"0" or not x.lstrip(b"-").startswith(b"0") for x in numbers)
sys.exit(42 if ok else 43)
"""
SUBMISSIONS = {
    "accepted/kadane.py": """import sys
data = sys.stdin.buffer.read().split()
best, here = None, 0
for x in map(int, data[1:]):
    here = max(x, here + x) if best is not None else x
    best = here if best is None or here > best else best
print(best)
""",
    "accepted/kadane.cpp": """#include <cstdio>
#include <algorithm>
int main() {
    int n; long long best = 0, here = 0;
    if (std::scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        long long x; std::scanf("%lld", &x);
        here = i ? std::max(x, here + x) : x;
        best = i ? std::max(best, here) : here;
    }
    std::printf("%lld\\n", best);
}
""",
    "accepted/Kadane.java": """import java.io.*;
import java.util.*;
public class Kadane {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        int n = Integer.parseInt(in.readLine().trim());
        StringTokenizer tokens = new StringTokenizer(in.readLine());
        long best = 0, here = 0;
        for (int i = 0; i < n; i++) {
            long x = Long.parseLong(tokens.nextToken());
            here = i > 0 ? Math.max(x, here + x) : x;
            best = i > 0 ? Math.max(best, here) : here;
        }
        System.out.println(best);
    }
}
""",
    "time_limit_exceeded/quadratic.py": """n = int(input())
a = list(map(int, input().split()))
best = a[0]
for i in range(n):
    total = 0
    for j in range(i, n):
        total += a[j]
        best = max(best, total)
print(best)
""",
    "run_time_error/bounded.cpp": """#include <cstdio>
#include <vector>
#include <algorithm>
int main() {
    int n; std::vector<long long> a(5000);
    if (std::scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) std::scanf("%lld", &a.at(i));
    long long best = a[0], here = 0;
    for (int i = 0; i < n; i++) { here = i ? std::max(a[i], here + a[i]) : a[i];
                                  best = std::max(best, here); }
    std::printf("%lld\\n", best);
}
""",
    "wrong_answer/int32.cpp": """#include <cstdio>
#include <algorithm>
int main() {
    int n, best = 0, here = 0;
    if (std::scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        int x; std::scanf("%d", &x);
        here = i ? std::max(x, here + x) : x;
        best = i ? std::max(best, here) : here;
    }
    std::printf("%d\\n", best);
}
""",
}


def largest_sum(numbers: list[int]) -> int:
    best, here = numbers[0], 0
    for index, x in enumerate(numbers):
        here = max(x, here + x) if index else x
        best = max(best, here)
    return best


def case(rng: random.Random, n: int, spread: int) -> tuple[str, str]:
    numbers = [rng.randint(-spread + spread // 50, spread) for _ in range(n)]
    return f"{n}\n{' '.join(map(str, numbers))}\n", f"{largest_sum(numbers)}\n"


def write(root: Path) -> Path:
    """The package at ``root`` (made; must not exist); returns it."""
    rng = random.Random(61)
    for sub in ("data/sample", "data/secret", "input_format_validators", "problem_statement"):
        (root / sub).mkdir(parents=True)
    (root / "problem.yaml").write_text(PROBLEM_YAML)
    (root / "problem_statement/problem.en.tex").write_text(STATEMENT)
    (root / "input_format_validators/validate.py").write_text(VALIDATOR)
    sample = ("5\n3 -4 5 -1 2\n", "6\n")
    (root / "data/sample/1.in").write_text(sample[0])
    (root / "data/sample/1.ans").write_text(sample[1])
    sizes = [rng.randint(1, 100) for _ in range(20)]
    sizes += [rng.randint(1000, 9000) for _ in range(20)]
    sizes += [100000] * 20
    for index, n in enumerate(sizes):
        spread = 10**9 if index % 3 == 0 else 1000
        given, answer = case(rng, n, spread)
        (root / f"data/secret/{index + 1:02}.in").write_text(given)
        (root / f"data/secret/{index + 1:02}.ans").write_text(answer)
    for name, text in SUBMISSIONS.items():
        (root / "submissions" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submissions" / name).write_text(text)
    return root


if __name__ == "__main__":
    write(Path(sys.argv[1]))
