#!/usr/bin/env python3
"""Input validator for guess: the secret number, 1 to 1000. Exit 42 when valid."""
import re
import sys

data = sys.stdin.buffer.read()
ok = re.fullmatch(rb"[1-9][0-9]{0,3}\n", data) is not None and 1 <= int(data) <= 1000
sys.exit(42 if ok else 43)
