#!/usr/bin/env python3
"""Input validator for divisor: one composite integer 4 <= n <= 10^12. Exit 42 if valid."""
import re
import sys

data = sys.stdin.buffer.read()
if not re.fullmatch(rb"[1-9][0-9]{0,12}\n", data):
    sys.exit(43)
n = int(data)
composite = any(n % d == 0 for d in range(2, min(n, 10**6 + 1)) if d * d <= n)
sys.exit(42 if 4 <= n <= 10**12 and composite else 43)
