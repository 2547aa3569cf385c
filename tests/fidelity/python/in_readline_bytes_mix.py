import sys
first = sys.stdin.buffer.readline()
rest = sys.stdin.read()
print(first, len(rest))
