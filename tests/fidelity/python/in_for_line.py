import sys
n = 0
for line in sys.stdin:
    n += len(line.split())
print(n)
