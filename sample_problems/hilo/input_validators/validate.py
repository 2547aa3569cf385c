import re
import sys

data = sys.stdin.read()
if not re.fullmatch(r"[1-9][0-9]*\n", data) or not 1 <= int(data) <= {{max_value}}:
    sys.exit(43)
sys.exit(42)
