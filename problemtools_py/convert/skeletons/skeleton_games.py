"""The files of a new interactive problem (guess a number) and of a multi-pass one (a
square, then its successor): see convert.skeletons.skeleton and skeleton_texts."""

from __future__ import annotations

GUESS_STATEMENT = """\
The judge has picked a whole number between $1$ and $1000$. Find it with at most
$10$ queries.

## Interaction

Write one query per line: a number $q$. The judge answers `higher` when its number is
larger than $q$, `lower` when it is smaller, and `correct` when it is $q$; then your
program must end. Flush your output after every query.
"""
GUESS_STATEMENT_TEX = """\
The judge has picked a whole number between $1$ and $1000$. Find it with at most
$10$ queries.

\\section*{Interaction}

Write one query per line: a number $q$. The judge answers \\texttt{higher} when its number
is larger than $q$, \\texttt{lower} when it is smaller, and \\texttt{correct} when it is
$q$; then your program must end. Flush your output after every query.
"""
GUESS_GENERATOR = '''"""secret.py SEED: the judge's number, 1 to 1000."""

import random
import sys

print(random.Random(int(sys.argv[1])).randint(1, 1000))
'''
GUESS_VALIDATOR = '''\
"""Input validator: one integer from 1 to 1000 on a line. Exit 42 when valid."""

import re
import sys

data = sys.stdin.read()
ok = re.fullmatch(r"[1-9][0-9]*\\n", data) is not None and 1 <= int(data) <= 1000
sys.exit(42 if ok else 43)
'''
GUESS_JUDGE = '''"""Interactive validator: answers each query with higher, lower or correct.

validate.py input_file answer_file feedback_dir < the program's output > its input.
Exit 42 when the number is found within 10 queries, 43 otherwise."""

import os
import sys


def verdict(feedback_dir: str, code: int, message: str) -> None:
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "a", encoding="utf-8") as f:
        f.write(message + "\\n")
    sys.exit(code)


def main() -> None:
    input_file, _answer, feedback_dir = sys.argv[1:4]
    with open(input_file, encoding="ascii") as f:
        secret = int(f.read())
    for queries in range(1, 11):
        line = sys.stdin.readline()
        if not line:
            verdict(feedback_dir, 43, f"end of output after {queries - 1} queries")
        try:
            query = int(line)
        except ValueError:
            verdict(feedback_dir, 43, f"query {queries} is not a number: {line[:30]!r}")
        answer = "correct" if query == secret else "lower" if secret < query else "higher"
        print(answer, flush=True)
        if answer == "correct":
            if sys.stdin.read(1):
                verdict(feedback_dir, 43, "output after the correct query")
            verdict(feedback_dir, 42, f"found in {queries} queries")
    verdict(feedback_dir, 43, "not found within 10 queries")


if __name__ == "__main__":
    main()
'''
GUESS_SOLUTIONS = {
    "python3": ("solution.py", """lo, hi = 1, 1000
while True:
    mid = (lo + hi) // 2
    print(mid, flush=True)
    answer = input()
    if answer == "correct":
        break
    if answer == "higher":
        lo = mid + 1
    else:
        hi = mid - 1
"""),
    "cpp": ("solution.cpp", """#include <iostream>
#include <string>

int main() {
    int lo = 1, hi = 1000;
    while (true) {
        int mid = (lo + hi) / 2;
        std::cout << mid << std::endl;
        std::string answer;
        std::cin >> answer;
        if (answer == "correct") break;
        if (answer == "higher") lo = mid + 1; else hi = mid - 1;
    }
}
"""),
    "java": ("Solution.java", """import java.util.Scanner;

public class Solution {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int lo = 1, hi = 1000;
        while (true) {
            int mid = (lo + hi) / 2;
            System.out.println(mid);
            System.out.flush();
            String answer = in.next();
            if (answer.equals("correct")) break;
            if (answer.equals("higher")) lo = mid + 1; else hi = mid - 1;
        }
    }
}
"""),
}  # fmt: skip
# the sample's transcript (the accepted solution against the judge, for 333)
GUESS_GENERATORS = """# The test data: `generatedata .` writes data/ from this file.
solution:

data:
  sample:
    data:
      - "":
          in: |
            333
          ans: ""
          in.download: |
            333
          ans.download: ""
          interaction: |
            > 500
            < lower
            > 250
            < higher
            > 375
            < lower
            > 312
            < higher
            > 343
            < lower
            > 327
            < higher
            > 335
            < lower
            > 331
            < higher
            > 333
            < correct
  secret:
    data:
      - edge-low:
          in: |
            1
          ans: ""
      - edge-high:
          in: |
            1000
          ans: ""
      - random:
          generate: secret.py {seed}
          count: 4
  invalid_input:
    data:
      zero:
        in: |
          0
"""

PASSES_STATEMENT = """\
Your program runs twice. The first time it is given a line `1 x`: print $x^2$. The
second time it is given `2 y`, where $y$ is what it printed the first time: print $y + 1$.

## Input

One line: the pass number ($1$ or $2$) and an integer ($1 \\le x \\le 10^4$).

## Output

One integer, as above.
"""
PASSES_GENERATOR = '''"""first_pass.py SEED: the first pass's input, "1 x" with 1 <= x <= 10^4."""

import random
import sys

print(1, random.Random(int(sys.argv[1])).randint(1, 10**4))
'''
PASSES_VALIDATOR = '''\
"""Input validator: "1 x" with 1 <= x <= 10^4 on a line. Exit 42 when valid."""

import re
import sys

data = sys.stdin.read()
match = re.fullmatch(r"1 ([1-9][0-9]*)\\n", data)
sys.exit(42 if match and int(match.group(1)) <= 10**4 else 43)
'''
PASSES_JUDGE = '''"""Multi-pass output validator: pass 1 ("1 x") must print x^2 and gets "2 x^2" as
its next input; pass 2 must print x^2 + 1.

validate.py input_file answer_file feedback_dir < the program's output."""

import os
import sys


def finish(feedback_dir: str, code: int, message: str) -> None:
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "a", encoding="utf-8") as f:
        f.write(message + "\\n")
    sys.exit(code)


def main() -> None:
    input_file, _answer, feedback_dir = sys.argv[1:4]
    with open(input_file, encoding="ascii") as f:
        number, x = (int(word) for word in f.read().split())
    tokens = sys.stdin.read(1 << 16).split()
    expected = x * x if number == 1 else x + 1
    if len(tokens) != 1 or tokens[0] != str(expected):
        finish(feedback_dir, 43, f"pass {number}: expected {expected}, got {tokens[:3]}")
    if number == 2:
        finish(feedback_dir, 42, "both passes correct")
    with open(os.path.join(feedback_dir, "nextpass.in"), "w", encoding="ascii") as f:
        f.write(f"2 {x * x}\\n")
    finish(feedback_dir, 42, "pass 1 correct")


if __name__ == "__main__":
    main()
'''
PASSES_SOLUTIONS = {
    "python3": ("solution.py", """number, x = map(int, input().split())
print(x * x if number == 1 else x + 1)
"""),
    "cpp": ("solution.cpp", """#include <iostream>

int main() {
    long long number, x;
    std::cin >> number >> x;
    std::cout << (number == 1 ? x * x : x + 1) << std::endl;
}
"""),
    "java": ("Solution.java", """import java.util.Scanner;

public class Solution {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        long number = in.nextLong(), x = in.nextLong();
        System.out.println(number == 1 ? x * x : x + 1);
    }
}
"""),
}  # fmt: skip
PASSES_GENERATORS = """# The test data: `generatedata .` writes data/ from this file.
solution:

data:
  sample:
    data:
      - "":
          in: |
            1 7
          ans: ""
          in.download: |
            1 7
          ans.download: |
            49
            50
          interaction: |
            < 1 7
            > 49
            ---
            < 2 49
            > 50
  secret:
    data:
      - one:
          in: |
            1 1
          ans: ""
      - max:
          in: |
            1 10000
          ans: ""
      - random:
          generate: first_pass.py {seed}
          count: 3
  invalid_input:
    data:
      second-pass:
        in: |
          2 5
"""
GUESS_TESTING_TOOL = '''#!/usr/bin/env python3
"""Testing tool: python3 testing_tool.py -f INPUT PROGRAM...

INPUT holds the number to guess (1 to 1000). The tool plays the judge: it answers each
query of your program (run as PROGRAM...) with higher, lower or correct, shows the
exchange on standard error, and exits 0 when your program found the number in at most
10 queries and then ended well. It is not the judge: passing it is no guarantee."""

import argparse
import subprocess
import sys

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("-f", dest="input", required=True, help="the input file, e.g. 1.in")
parser.add_argument("program", nargs="+", help="how to run your program")
args = parser.parse_args()
with open(args.input, encoding="ascii") as f:
    secret = int(f.read())
with subprocess.Popen(args.program, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                      text=True) as program:
    assert program.stdin is not None and program.stdout is not None
    for queries in range(1, 11):
        line = program.stdout.readline()
        if not line:
            sys.exit(f"your program ended after {queries - 1} queries")
        query = int(line)
        answer = "correct" if query == secret else "lower" if secret < query else "higher"
        print(f"query {queries}: {query} -> {answer}", file=sys.stderr)
        program.stdin.write(answer + "\\n")
        program.stdin.flush()
        if answer == "correct":
            break
    else:
        sys.exit("not found within 10 queries")
    program.stdin.close()
    if program.wait() != 0:
        sys.exit(f"your program exited with code {program.returncode}")
print("found: your program would be judged further", file=sys.stderr)
'''
