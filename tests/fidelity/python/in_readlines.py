import sys
lines = sys.stdin.readlines()
print(len(lines), repr(lines[-1]))
