"""An input validator for sample_problems/subtasks that reports its bounds to
``--constraints_file`` as BAPCtools' validation.h does (shared by the tests that use it)."""

REPORTING = """import re
import sys

MAX_N, MAX_A = {{max_n}}, {{max_a}}
args = sys.argv[1:]
out = args[args.index("--constraints_file") + 1] if "--constraints_file" in args else None
data = sys.stdin.read()
match = re.fullmatch(r"(0|[1-9][0-9]*)\\n(-?(?:0|[1-9][0-9]*)(?: -?(?:0|[1-9][0-9]*))*)\\n", data)
if not match:
    sys.exit(43)
n, values = int(match.group(1)), [int(v) for v in match.group(2).split()]
if not 1 <= n <= MAX_N or len(values) != n or any(abs(v) > MAX_A for v in values):
    sys.exit(43)
if out:
    low, high = min(values), max(values)
    with open(out, "w") as f:
        f.write(f"n n {int(n == 1)} {int(n == MAX_N)} {n} {n} 1 {MAX_N}\\n")
        f.write(f"a a {int(low == -MAX_A)} {int(high == MAX_A)} {low} {high} {-MAX_A} {MAX_A}\\n")
sys.exit(42)
"""
