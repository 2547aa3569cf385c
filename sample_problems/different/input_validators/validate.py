#!/usr/bin/env python3
"""Input validator for different: 1 to 100 lines of "a b", 0 <= a, b <= --max.
Exit 42 when valid."""
import re
import sys

limit = 10**15
args = sys.argv[1:]
if len(args) == 2 and args[0] == "--max":
    limit = int(args[1])
data = sys.stdin.buffer.read()
if not re.fullmatch(rb"((0|[1-9][0-9]*) (0|[1-9][0-9]*)\n){1,100}", data):
    sys.exit(43)
values = [int(v) for v in data.split()]
sys.exit(42 if max(values) <= limit else 43)
