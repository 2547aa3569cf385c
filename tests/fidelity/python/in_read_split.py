import sys
data = sys.stdin.read().split()
print(len(data), data[0], data[-1])
