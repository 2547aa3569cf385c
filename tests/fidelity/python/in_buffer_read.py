import sys
data = sys.stdin.buffer.read().split()
print(len(data), int(data[0]) + int(data[1]))
