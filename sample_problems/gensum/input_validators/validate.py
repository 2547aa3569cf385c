import re
import sys

MAX_N, MAX_A = {{max_n}}, {{max_a}}
data = sys.stdin.read()
match = re.fullmatch(r"(0|[1-9][0-9]*)\n(-?(?:0|[1-9][0-9]*)(?: -?(?:0|[1-9][0-9]*))*)\n", data)
if not match:
    sys.exit(43)
n, values = int(match.group(1)), [int(v) for v in match.group(2).split()]
if not 1 <= n <= MAX_N or len(values) != n or any(abs(v) > MAX_A for v in values):
    sys.exit(43)
sys.exit(42)
