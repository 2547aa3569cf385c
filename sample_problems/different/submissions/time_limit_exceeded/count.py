import sys

for line in sys.stdin:
    a, b = map(int, line.split())
    lo, hi = min(a, b), max(a, b)
    steps = 0
    while lo < hi:  # counts one by one
        lo += 1
        steps += 1
    print(steps)
