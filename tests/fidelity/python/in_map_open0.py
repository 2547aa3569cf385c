import sys
first = next(iter(open(0)))
print(first.strip()[::-1])
