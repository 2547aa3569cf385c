import sys
lines = sys.stdin.read().splitlines()
print(lines[2].upper(), len(lines[2]))
