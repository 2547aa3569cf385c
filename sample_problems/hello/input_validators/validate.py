#!/usr/bin/env python3
"""Input validator for hello: one line holding 1 to 20 letters. Exit 42 when valid."""
import re
import sys

data = sys.stdin.buffer.read()
sys.exit(42 if re.fullmatch(rb"[A-Za-z]{1,20}\n", data) else 43)
