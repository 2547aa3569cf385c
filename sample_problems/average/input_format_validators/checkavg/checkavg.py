#!/usr/bin/env python3
"""Input validator for average. Exit 42 when the input is exactly as specified."""
import re
import sys

INT = rb"(0|-?[1-9][0-9]*)"
data = sys.stdin.buffer.read()
match = re.fullmatch(rb"([1-9][0-9]*)\n(" + INT + rb"( " + INT + rb")*)\n", data)
if not match:
    sys.exit(43)
n = int(match.group(1))
values = [int(v) for v in match.group(2).split()]
ok = 1 <= n <= 1000 and len(values) == n and all(abs(v) <= 10**6 for v in values)
sys.exit(42 if ok else 43)
