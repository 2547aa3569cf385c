#!/usr/bin/env python3
"""Input validator for bigsum. Exit 42 when valid."""
import re
import sys

data = sys.stdin.buffer.read()
match = re.fullmatch(rb"([1-9][0-9]*)\n((?:0|[1-9][0-9]*)(?: (?:0|[1-9][0-9]*))*)\n", data)
if not match:
    sys.exit(43)
n = int(match.group(1))
values = [int(v) for v in match.group(2).split()]
sys.exit(42 if 1 <= n <= 1000 and len(values) == n and max(values) <= 10**12 else 43)
