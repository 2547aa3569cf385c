"""The files of a new problem (see convert.skeletons.skeleton) of the sum of a list: pass-fail, and
scoring with two groups (the interactive and multi-pass ones: skeleton_games). Each is a
whole problem: statement, generator, input validator, and accepted submissions in Python
3, C++ and Java; the numbers are the statement's bounds."""

from __future__ import annotations

SUM_STATEMENT = """Add up a list of integers.

## Input

The first line holds an integer $n$ ($1 \\le n \\le 1000$), the second $n$ integers
$a_1, \\ldots, a_n$ ($|a_i| \\le 10^6$).

## Output

Print the sum $a_1 + \\cdots + a_n$.
"""
SUM_STATEMENT_TEX = """Add up a list of integers.

\\section*{Input}

The first line holds an integer $n$ ($1 \\le n \\le 1000$), the second $n$ integers
$a_1, \\ldots, a_n$ ($|a_i| \\le 10^6$).

\\section*{Output}

Print the sum $a_1 + \\cdots + a_n$.
"""
SUM_GENERATOR = '''"""random_list.py N BOUND SEED: N integers of absolute value at most BOUND."""

import random
import sys

n, bound, seed = map(int, sys.argv[1:4])
rng = random.Random(seed)
print(n)
print(" ".join(str(rng.randint(-bound, bound)) for _ in range(n)))
'''
SUM_VALIDATOR = '''\
"""Input validator: n (1..1000) on the first line, then n integers of absolute value at
most 10^6, one space apart, and nothing else. Exit 42 when valid, 43 otherwise."""

import re
import sys

data = sys.stdin.read()
match = re.fullmatch(r"([1-9][0-9]*)\\n(-?(?:0|[1-9][0-9]*)(?: -?(?:0|[1-9][0-9]*))*)\\n", data)
if not match:
    sys.exit(43)
n, values = int(match.group(1)), [int(v) for v in match.group(2).split()]
if not 1 <= n <= 1000 or len(values) != n or any(abs(v) > 10**6 for v in values):
    sys.exit(43)
sys.exit(42)
'''
SUM_SOLUTIONS = {
    "python3": ("solution.py", "input()\nprint(sum(map(int, input().split())))\n"),
    "cpp": ("solution.cpp", """#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        std::cin >> a;
        total += a;
    }
    std::cout << total << std::endl;
}
"""),
    "java": ("Solution.java", """import java.util.Scanner;

public class Solution {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int n = in.nextInt();
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += in.nextLong();
        }
        System.out.println(total);
    }
}
"""),
}  # fmt: skip
SUM_SAMPLE = """  sample:
    data:
      - "":
          in: |
            3
            1 2 3
"""
SUM_INVALID = """  invalid_input:
    data:
      too_long:
        in: |
          1
          1 2
      too_big:
        in: |
          1
          1000001
"""
SUM_GENERATORS = (
    """# The test data: `generatedata .` writes data/ from this file.
solution: /submissions/accepted/solution.py

data:
"""
    + SUM_SAMPLE
    + """  secret:
    data:
      - small:
          generate: random_list.py 10 100 {seed}
          count: 3
      - large:
          generate: random_list.py 1000 1000000 {seed}
          count: 2
"""
    + SUM_INVALID
)
SCORING_GENERATORS = (
    """\
# The test data: `generatedata .` writes data/ from this file. Two groups: small
# values (30 points) and large ones (70 points).
solution: /submissions/accepted/solution.py

data:
"""
    + SUM_SAMPLE
    + """  secret:
    test_group.yaml:
      max_score: 100
    data:
      - small:
          test_group.yaml:
            max_score: 30
          data:
            - random:
                generate: random_list.py 10 100 {seed}
                count: 3
      - large:
          test_group.yaml:
            max_score: 70
          data:
            - random:
                generate: random_list.py 1000 1000000 {seed}
                count: 3
"""
    + SUM_INVALID
)
