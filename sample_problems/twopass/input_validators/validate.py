#!/usr/bin/env python3
"""Input validator for twopass: "1 n" with 1 <= n <= 10^6. Exit 42 when valid."""
import re
import sys

data = sys.stdin.buffer.read()
match = re.fullmatch(rb"1 ([1-9][0-9]{0,6})\n", data)
sys.exit(42 if match and int(match.group(1)) <= 10**6 else 43)
